import { z } from "zod";
import { timestampSchema } from "@/lib/http/response-primitives";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import type { Sighting } from "./list-sightings";

/** GET /api/v1/badge-sightings: one host a record's embed badge was loaded on, counted (docs/embed.md). */
export const badgeSightingSchema = z
  .strictObject({
    object: z.literal("badge_sighting"),
    id: z.string().describe("`<record id>:<host>`: the list's cursor."),
    record_id: z.string(),
    certificate_url: z.string().describe("The record's public certificate."),
    host: z.string().describe("The host name of the page that loaded the badge (from the request's `Origin`; no port, path or visitor data)."),
    covered: z.boolean().describe("Whether the record covers the host, by the badge's own rule: exactly one of the record's websites or its account's proved domains, or one of them with `www.` in front — no other subdomain (judged at each count)."),
    count: z.number().int().describe("Badge loads from this host that reached the service (answers a browser or cache kept are not counted)."),
    first_seen_at: timestampSchema,
    last_seen_at: timestampSchema.describe("Up to one flush interval (BADGE_SIGHTINGS_FLUSH_MS) behind."),
    reported_at: timestampSchema.nullable().describe("When the owner was told (`badge.seen_elsewhere`); null for a covered host."),
  })
  .meta({ id: "BadgeSighting" });

export const badgeSightingListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(badgeSightingSchema), has_more: z.boolean() })
  .meta({ id: "BadgeSightingList" });

export type _SightingSchemaChecks = [Assert<SameKeys<Sighting, Out<typeof badgeSightingSchema>>>];

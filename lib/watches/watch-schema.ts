import { z } from "zod";
import type { Assert, Fits, Out, SameKeys } from "@/lib/http/response-checks";
import { timestampSchema } from "@/lib/http/response-primitives";
import { WATCH_ID_RE } from "@/lib/ids";
import type { deleteWatch, listWatches, serializeWatch } from "./manage-watches";
import { WATCH_KINDS } from "./watch-value";

/** Impersonation watches as their owner sees them: the contract of serializeWatch and friends (./manage-watches). */

export const watchMatchSchema = z
  .strictObject({
    verification_id: z.string().describe("The record of another account that carries the value."),
    how: z.enum(["exact", "confusable", "lookalike"]).describe(
      "`exact`: the same value in normal form; `confusable`: the same TR39 skeleton (names and domains); " +
      "`lookalike`: one edit or an ASCII trick away (`brightkettie.co.uk` for `brightkettle.co.uk`, `rn` for `m`; names and domains).",
    ),
    matched_value: z.string().describe("The value as the record carries it."),
    event_id: z.string().nullable().describe("The `watch.matched` event that announced it."),
    certificate_url: z.string().describe("The record's certificate."),
    matched_at: timestampSchema,
  })
  .meta({ id: "WatchMatch" });

export const watchSchema = z
  .strictObject({
    object: z.literal("watch"),
    id: z.string().regex(WATCH_ID_RE),
    kind: z.enum(WATCH_KINDS),
    value: z.string().describe("The value as it was given."),
    match_key: z.string().describe("The value in the normal form it is compared in (domain: the registrable domain, IDN as punycode; name: NFKC, case-folded, spaces collapsed)."),
    origin: z.enum(["user", "default"]).describe("`default`: added when the account became a verified organisation (legal name, LEI, proved domains)."),
    created_at: timestampSchema,
    recent_matches: z.array(watchMatchSchema).describe("Its newest matches (at most 10), newest first."),
  })
  .meta({ id: "Watch" });

export const watchListSchema = z
  .strictObject({
    object: z.literal("list"), data: z.array(watchSchema), has_more: z.boolean(),
    limit: z.number().int().describe("The most watches an account may have."),
  })
  .meta({ id: "WatchList" });

export const watchDeletedSchema = z
  .strictObject({ object: z.literal("watch"), id: z.string(), deleted: z.literal(true) })
  .meta({ id: "WatchDeleted" });

export type _WatchSchemaChecks = [
  Assert<SameKeys<ReturnType<typeof serializeWatch>, Out<typeof watchSchema>>>,
  Assert<Fits<ReturnType<typeof serializeWatch>, Out<typeof watchSchema>>>,
  Assert<SameKeys<ReturnType<typeof serializeWatch>["recent_matches"][number], Out<typeof watchMatchSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof listWatches>>, Out<typeof watchListSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof deleteWatch>>, Out<typeof watchDeletedSchema>>>,
];

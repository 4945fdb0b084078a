import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import type { getUsage } from "./get-usage";

/** This month's usage: the contract of getUsage (./get-usage). */

const meter = z.strictObject({
  used: z.number().int().min(0),
  allowance: z.number().int().min(0),
});

export const usageSchema = z
  .strictObject({
    object: z.literal("usage"),
    period: z.string().regex(/^\d{4}-\d{2}$/).describe("Calendar month (UTC), YYYY-MM."),
    plan: z.enum(["none", "starter", "growth"]),
    live_records: meter,
    reviewed_verifications: meter,
  })
  .meta({ id: "Usage", description: "This month's live usage against the plan. Sandbox work is never counted." });

export type _UsageSchemaChecks = [Assert<SameKeys<Awaited<ReturnType<typeof getUsage>>, Out<typeof usageSchema>>>];

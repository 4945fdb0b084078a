import { z } from "zod";
import { fieldErrorSchema } from "@/lib/http/error-schema";
import type { Assert, Fits, Out, SameKeys } from "@/lib/http/response-checks";
import { recordStatusSchema } from "@/lib/http/response-primitives";
import type { BatchAnswer, BatchOutcome } from "./batch-answer";
import { recordIdSchema } from "@/lib/record-model/schemas";

/** The answer to a batch: the contract of batchAnswer (./batch-answer). */

const BATCH_OUTCOMES = ["issued", "existing", "pending_review", "failed"] as const satisfies readonly BatchOutcome[];

export const batchRowResultSchema = z
  .strictObject({
    index: z.number().int().min(0).describe("The row's position in the request's records array."),
    outcome: z.enum(BATCH_OUTCOMES).describe(
      "issued: the record was issued. pending_review: accepted for a reviewer. failed: the row's check refused it (see error); " +
        "nothing was created for it. existing: on a replay of the batch's key, a row that created its record the first time.",
    ),
    verification_id: recordIdSchema.optional().describe("The record of this row; absent for failed rows."),
    status: recordStatusSchema.optional().describe("The record's status when the batch issued it (active or pending_review)."),
    certificate_url: z.url().nullable().optional().describe("The public certificate; null while pending review; absent for failed rows."),
    error: fieldErrorSchema.optional().describe("Why a failed row was refused; param is written records[i].field."),
  })
  .meta({ id: "BatchRowResult" });

const count = z.number().int().min(0);

export const batchSchema = z
  .strictObject({
    object: z.literal("batch"),
    batch_id: z.string().regex(/^bat_[0-9a-hjkmnp-tv-z]{20}$/).describe("Identifies the batch; the same on every replay of its key."),
    totals: z
      .strictObject({ issued: count, existing: count, pending_review: count, failed: count })
      .describe("How many rows ended in each outcome; they add up to the number of rows."),
    results: z.array(batchRowResultSchema).describe("One entry per row, in request order."),
  })
  .meta({ id: "Batch", description: "The answer to a batch of records." });

export type _BatchSchemaChecks = [
  Assert<SameKeys<BatchAnswer, Out<typeof batchSchema>>>,
  Assert<SameKeys<BatchAnswer["results"][number], Out<typeof batchRowResultSchema>>>,
  Assert<Fits<BatchAnswer, Out<typeof batchSchema>>>,
  // every outcome of ./batch-answer is listed
  Assert<[Exclude<BatchOutcome, (typeof BATCH_OUTCOMES)[number]>] extends [never] ? true : false>,
];

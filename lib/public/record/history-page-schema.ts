import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { actorKind } from "./public-view";
import type { HistoryPage } from "@/lib/record-model/history-page";
import { historyEntrySchema } from "./record-schema";
import { recordIdSchema } from "@/lib/record-model/schemas";

/** A page of a record's history (GET /api/v1/records/{id}/history): the contract of serializeHistoryPage. */
export const historyPageSchema = z
  .strictObject({
    object: z.literal("history_page"),
    verification_id: recordIdSchema,
    data: z.array(historyEntrySchema).describe("Transitions written before `before` (all of them up to `limit`), oldest first."),
    has_more: z.boolean().describe("Older transitions follow: ask again with `before` = `next_before`."),
    next_before: z.number().int().min(1).nullable().describe("Cursor for the transitions before these; null when these are the oldest."),
  })
  .meta({ id: "HistoryPage", description: "A page of a record's lifecycle history, newest page first, each page oldest first." });

/** Built field by field: an internal actor id (`owner:<key id>`) never leaves as more than its kind. */
export function serializeHistoryPage(id: string, page: HistoryPage) {
  return {
    object: "history_page" as const,
    verification_id: id,
    data: page.entries.map((h) => ({ status: h.status, at: h.at.toISOString(), reason: h.reason, by: actorKind(h.by) })),
    has_more: page.nextBefore !== null,
    next_before: page.nextBefore,
  };
}

export type _HistoryPageSchemaChecks = [Assert<SameKeys<ReturnType<typeof serializeHistoryPage>, typeof historyPageSchema.shape>>];

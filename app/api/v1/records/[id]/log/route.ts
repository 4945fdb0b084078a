import { corsPreflight, json, otherMethods, param } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";
import { publicApi } from "@/lib/accounts/with-api-key";
import { getPublicRecord, publicRecordNotFound } from "@/lib/record-model/get-record";
import { historyQueryFrom } from "@/lib/record-model/history-page";
import { publishedCheckpoint, recordEntries } from "@/lib/tlog/store";

/**
 * Public: an issued record's transparency-log entries, each with its inclusion proof against
 * the checkpoint returned beside it (CONTRACT "Transparency log"): the latest page (50, or
 * `?limit=` up to 200) and `entries_before`, the cursor (`?before=`) for the ones before —
 * a record's history has no bound, this answer does. Entries made after that checkpoint are
 * counted in `pending_entries` and proven once the next one is signed.
 */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const page = historyQueryFrom(new URL(ctx.req.url).searchParams);
  const record = await getPublicRecord(ctx.db, id);
  if (!record) throw publicRecordNotFound(id);
  const checkpoint = await publishedCheckpoint(ctx.db);
  if (!checkpoint) throw new ApiError("not_found", "The transparency log has no checkpoint yet; try again in a few seconds.");
  const { proven, pending, olderBefore } = await recordEntries(ctx.db, record.id, checkpoint, page);
  return json({
    verification_id: record.id,
    environment: record.environment,
    logged: record.environment === "live",
    checkpoint: checkpoint.note,
    entries: proven,
    entries_before: olderBefore,
    pending_entries: pending,
  }, 200, { "Cache-Control": "no-cache" });
});

export const OPTIONS = corsPreflight;
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

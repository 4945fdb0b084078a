import { corsPreflight, json, otherMethods, param } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";
import { publicApi } from "@/lib/http/with-api-key";
import { getPublicRecord, publicRecordNotFound } from "@/lib/records/get-record";
import { latestCheckpoint, recordEntries } from "@/lib/tlog/store";

/**
 * Public: every transparency-log entry of an issued record, each with its inclusion proof
 * against the checkpoint returned beside it (CONTRACT "Transparency log"). Entries made after
 * that checkpoint are counted in `pending_entries` and proven once the next one is signed.
 */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const record = await getPublicRecord(ctx.db, id);
  if (!record) throw publicRecordNotFound(id);
  const checkpoint = await latestCheckpoint(ctx.db);
  if (!checkpoint) throw new ApiError("not_found", "The transparency log has no checkpoint yet; try again in a few seconds.");
  const { proven, pending } = await recordEntries(ctx.db, record.id, checkpoint);
  return json({
    verification_id: record.id,
    environment: record.environment,
    logged: record.environment === "live",
    checkpoint: checkpoint.note,
    entries: proven,
    pending_entries: pending,
  }, 200, { "Cache-Control": "no-cache" });
});

export const OPTIONS = corsPreflight;
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

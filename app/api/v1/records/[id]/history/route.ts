import { corsPreflight, json, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { getPublicRecord, publicRecordNotFound } from "@/lib/record-model/get-record";
import { getHistoryPage, historyQueryFrom } from "@/lib/record-model/history-page";
import { serializeHistoryPage } from "@/lib/public/record/history-page-schema";

/**
 * Public: a page of an issued record's lifecycle history, older than the cursor `before`
 * (the record's `lifecycle.history_before`, or a page's `next_before`). Whatever the status
 * read answers 404 for, this does too.
 */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const q = historyQueryFrom(new URL(ctx.req.url).searchParams);
  const record = await getPublicRecord(ctx.db, id);
  if (!record) throw publicRecordNotFound(id);
  const page = await getHistoryPage(ctx.db, record.id, q);
  return json(serializeHistoryPage(record.id, page), 200, { "Cache-Control": "no-cache" });
});

export const OPTIONS = corsPreflight;
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordLinks, records } from "@/drizzle/schema";
import { loadAccountProfiles, NO_PROFILE, type AccountProfile } from "@/lib/accounts/account-profile";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { DATETIME_FORMAT, parseOrThrow } from "@/lib/http/validation";
import { isIssued } from "@/lib/record-model/effective-status";
import { getPublicRecord } from "@/lib/record-model/get-record";
import { HISTORY_RECENT, latestEntries } from "@/lib/record-model/history-page";
import { asOf } from "@/lib/record-model/status-from-history";
import { buildPublicView, type PublicView } from "./public-view";

const atQuerySchema = z.object({ at: z.iso.datetime({ offset: true }) });

/**
 * The instant `?at=` asks about, or undefined when it is absent. A malformed or repeated
 * `at` is 422 `invalid_format` naming the RFC 3339 format; an instant after `now` is 422
 * `invalid_value` (the future has no status yet).
 */
export function statusInstantFrom(query: URLSearchParams, now = Date.now()): Date | undefined {
  const given = query.getAll("at");
  if (given.length === 0) return undefined;
  if (given.length > 1) throw new ApiError("invalid_format", `'at' must be given once; it ${DATETIME_FORMAT}`, "at");
  const { at: text } = parseOrThrow(atQuerySchema, { at: given[0] });
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new ApiError("invalid_format", `'at' ${DATETIME_FORMAT}`, "at");
  if (at.getTime() > now) {
    throw new ApiError(
      "invalid_value",
      `'at' (${at.toISOString()}) is in the future; ask about an instant up to now, or leave 'at' out for the status now.`,
      "at",
    );
  }
  return at;
}

/**
 * 404 for `?at=`: no issued record under `id`, or not issued yet at `at`. One answer for
 * both, so a submission under review or rejected is not told apart from no record at all.
 */
export const publicRecordNotFoundAt = (id: string, at: Date) =>
  new ApiError("record_not_found", `No record ${id.slice(0, 40)} issued at or before ${at.toISOString()}.`, "id");

/**
 * The public view of a record as it stood at `at` (a past instant): its status from its
 * history, the standing of the records it rests on from theirs, and the fields its type
 * adds from those. The links are today's (a record's links are written with it) and the
 * account profile — its name and proved domains — is today's too: no history of either is
 * kept. `view.now` is `signedAt`, the moment the answer is made (its `as_of`). Null when
 * there is no issued record under `id`, or it had not been issued yet at `at`.
 *
 * The history is never read whole: one indexed query (record_history_record_at_idx) gives,
 * for the record and each record it rests on, its latest entries at or before `at` — the
 * first is the one in force then; the record's own are its view's (bounded) history then.
 */
export async function getPublicViewAt(db: DbOrTx, id: string, at: Date, signedAt = Date.now()): Promise<PublicView | null> {
  const row = await getPublicRecord(db, id);
  if (!row) return null;
  const atMs = at.getTime();
  const linked = await db
    .select({ role: recordLinks.role, target: records })
    .from(recordLinks)
    .innerJoin(records, eq(records.id, recordLinks.targetId))
    .where(eq(recordLinks.recordId, id))
    .orderBy(asc(recordLinks.role));
  const ids = [id, ...linked.map((l) => l.target.id)];
  const [history, profiles] = await Promise.all([
    latestEntries(db, ids, HISTORY_RECENT, at),
    loadAccountProfiles(db, [row.accountId], new Date(signedAt)),
  ]);
  // Latest first, all at or before `at`: the first is the entry in force then.
  const historyOf = (rid: string) => history.get(rid) ?? [];
  const own = historyOf(id);
  const then = asOf(row, own.slice(0, 1), atMs);
  if (!isIssued(then.status)) return null;
  const account: AccountProfile = profiles.get(row.accountId) ?? NO_PROFILE;
  const view = buildPublicView(
    then,
    [...own].reverse(),
    linked.map((l) => ({ role: l.role, target: asOf(l.target, historyOf(l.target.id).slice(0, 1), atMs) })),
    account,
    atMs,
  );
  return { ...view, now: signedAt };
}

// In the order lib/server/boot.ts imported them: the records, claims and accounts modules still import each other (issue 40).
import { purgeRevokedSessions } from "@/lib/auth/session-revocation";
import { rowsOf, type Db, type Handle } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { purgeRateLimits } from "@/lib/http/shared-rate-limiter";
import { purgeStatusListChanges } from "@/lib/public/vc/status-list";
import { purgeIdempotencyKeys } from "@/lib/idempotency/key-store";
import { closeStaleSubmissions, expireDueRecords, expiryDue, staleSubmissionsDue } from "@/lib/records/expire-records";
import { recheckDue, recheckRecords } from "@/lib/records/recheck-records";
import { purgeExpiredFiles } from "@/lib/files/purge-files";
import { organisationsDue, recheckOrganisations } from "@/lib/organisations/recheck-organisations";
import { log } from "@/lib/log/logger";
import { sql, type SQL } from "drizzle-orm";
import { organisations, records } from "@/drizzle/schema";

/**
 * Which parts of a sweep round have anything to do, in one read: most rounds find nothing,
 * and a round used to cost a dozen statements (three transactions among them) to learn it —
 * on the embedded database, ~4 % of a core for an idle server sweeping every 300 ms. Each
 * part's condition is the one its worker selects by (exported beside it), so the two cannot
 * drift apart; a part the read calls due still re-reads under its own locks.
 */
export async function whatIsDue(db: Db, now = new Date()): Promise<{ expiry: boolean; stale: boolean; recheck: boolean; organisations: boolean }> {
  const exists = (table: SQL, where: SQL | undefined) => (where ? sql`exists (select 1 from ${table} where ${where})` : sql`false`);
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`select
    ${exists(sql`${records}`, expiryDue())} as expiry,
    ${exists(sql`${records}`, staleSubmissionsDue(now))} as stale,
    ${exists(sql`${records}`, recheckDue(undefined, now))} as recheck,
    ${exists(sql`${organisations}`, organisationsDue(now))} as organisations`));
  const yes = (v: unknown) => v === true || v === "t";
  return { expiry: yes(row?.expiry), stale: yes(row?.stale), recheck: yes(row?.recheck), organisations: yes(row?.organisations) };
}

/** When this process last purged (sweepOnce): purges run at most every PURGE_INTERVAL_MS. */
let lastPurge = 0;

/**
 * Expiry, stale submissions, re-checks (records, then verified organisations' LEIs): one round;
 * and, when PURGE_INTERVAL_MS has passed since the last, the purges (documents included) —
 * nothing waits on a purge, while expiry and re-checks are what a round is for.
 */
export async function sweepOnce(handle: Handle) {
  const due = await whatIsDue(handle.db);
  const n = due.expiry ? await expireDueRecords(handle.db) : 0;
  if (n > 0) log().info({ records: n }, "sweep: records expired");
  const closed = due.stale ? await closeStaleSubmissions(handle.db) : 0;
  if (closed > 0) log().info({ submissions: closed }, "sweep: stale submissions closed");
  const { RECHECK_BATCH, RECHECK_SANDBOX_BATCH } = getEnv();
  const r = due.recheck ? await recheckRecords(handle.db, { live: RECHECK_BATCH, sandbox: RECHECK_SANDBOX_BATCH }) : { suspended: 0, reinstated: 0 };
  if (r.suspended + r.reinstated > 0) log().info({ suspended: r.suspended, reinstated: r.reinstated }, "sweep: re-checks changed records");
  const o = due.organisations ? await recheckOrganisations(handle.db) : { lapsed: 0, restored: 0 };
  if (o.lapsed + o.restored > 0) log().info({ lapsed: o.lapsed, restored: o.restored }, "sweep: LEI re-checks changed verified organisations");
  if (Date.now() - lastPurge < getEnv().PURGE_INTERVAL_MS) return;
  lastPurge = Date.now();
  const purged = await purgeExpiredFiles(handle.db);
  if (purged > 0) log().info({ files: purged }, "sweep: documents past their retention deleted");
  await purgeIdempotencyKeys(handle.db);
  await purgeRevokedSessions(handle.db); // signed-out sessions whose cookies have expired anyway
  if (handle.mode === "postgres") await purgeRateLimits(handle.db);
  await purgeStatusListChanges(handle.db);
}


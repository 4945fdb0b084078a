import { g as runtime, writeRuntimeFile } from "@/lib/admin/runtime-file";
import { allowances } from "@/lib/accounts/plans";
import { purgeRevokedSessions } from "@/lib/auth/session-revocation";
import { getEnv, INSECURE_WEBHOOKS_WARNING } from "@/lib/env";
import { getHandle, runPgliteInWorker } from "@/lib/db/client";
import { purgeRateLimits } from "@/lib/http/shared-rate-limiter";
import { purgeIdempotencyKeys } from "@/lib/idempotency/key-store";
import { backfillRecordValues } from "@/lib/lookup/record-values";
import { closeStaleSubmissions, expireDueRecords } from "@/lib/records/expire-records";
import { recheckRecords } from "@/lib/records/recheck-records";
import { invalidateStatus, STATUS_CHANNEL } from "@/lib/records/status-cache";
import { keyring } from "@/lib/signing/keys";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";
import { describeError } from "@/lib/log/describe-error";
import { redactConsoleErrors } from "@/lib/log/redact-console";

const g = globalThis as unknown as { __prsBooted?: boolean };

/** Runs once per server process before it answers: migrate, load keys, start the sweeps. */
export async function boot() {
  if (g.__prsBooted) return;
  g.__prsBooted = true;
  redactConsoleErrors(); // before anything can fail: no query parameters in the log
  const env = getEnv();
  // Announce the process before opening the embedded database, so the admin CLI waits
  // for this server instead of opening the same data folder itself.
  runtime.__prsRuntime = writeRuntimeFile();
  runPgliteInWorker(); // the embedded database gets its own thread in the server
  const handle = await getHandle(); // opens the database and applies migrations
  const keys = keyring(); // generates the first signing key in the embedded default
  allowances(); // a malformed PLAN_LIMITS stops the start instead of failing requests
  await handle.listen(STATUS_CHANNEL, (id) => invalidateStatus(id));
  await fillLookupValues(handle.db);
  console.log(
    `[prs] database: ${handle.mode}${handle.mode === "pglite" ? ` (${env.dataDir}/pglite, in a worker thread)` : ""}; ` +
      `signing key ${keys.active.kid}; public base URL ${env.publicBaseUrl}`,
  );
  if (env.WEBHOOK_ALLOW_INSECURE === "1") console.warn(INSECURE_WEBHOOKS_WARNING);
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return; // a slow round (DNS timeouts) must not overlap the next
    sweeping = true;
    try {
      const n = await expireDueRecords(handle.db);
      if (n > 0) console.log(`[prs] expired ${n} record(s)`);
      const closed = await closeStaleSubmissions(handle.db);
      if (closed > 0) console.log(`[prs] closed ${closed} stale submission(s)`);
      const r = await recheckRecords(handle.db);
      if (r.suspended + r.reinstated > 0) console.log(`[prs] re-checks: ${r.suspended} record(s) suspended, ${r.reinstated} reinstated`);
      await purgeIdempotencyKeys(handle.db);
      await purgeRevokedSessions(handle.db); // signed-out sessions whose cookies have expired anyway
      if (handle.mode === "postgres") await purgeRateLimits(handle.db);
    } catch (e) {
      console.error(`[prs] sweep failed: ${describeError(e)}`);
    } finally {
      sweeping = false;
    }
  };
  setInterval(sweep, env.EXPIRY_SWEEP_INTERVAL_MS).unref();
  void sweep();
  if (env.WEBHOOK_WORKER === "on") startDeliveryWorker(handle.db);
}

/**
 * Records issued before the lookup stored values (or before their type declared any) get
 * them before the server answers, so a lookup finds them from the first request. One pass,
 * idempotent; once done it finds nothing to do. A failure is logged and the start goes on:
 * those records are then not found until the next start.
 */
async function fillLookupValues(db: Parameters<typeof backfillRecordValues>[0]) {
  try {
    const n = await backfillRecordValues(db);
    if (n > 0) console.log(`[prs] lookup: stored ${n} value(s) of records issued before`);
  } catch (e) {
    console.error(`[prs] lookup: filling in the values of earlier records failed: ${describeError(e)}`);
  }
}

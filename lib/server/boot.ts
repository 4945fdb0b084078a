import { g as runtime, writeRuntimeFile } from "@/lib/admin/runtime-file";
import { allowances } from "@/lib/accounts/plans";
import { FAST_PASSWORD_HASH_WARNING, getEnv, INSECURE_WEBHOOKS_WARNING } from "@/lib/env";
import { getHandle, runPgliteInWorker } from "@/lib/db/client";
import { backfillRecordValues } from "@/lib/record-model/record-values";
import { backfillLookalikeKeys } from "@/lib/watches/default-watches";
import { invalidateStatus, STATUS_CHANNEL } from "@/lib/record-model/status-cache";
import { keyring } from "@/lib/signing/keys";
import { noteKey } from "@/lib/tlog/note";
import { logConflict, noteLogConflict } from "@/lib/tlog/health";
import { backfillLog, claimNoteKey, integrate, LogConflict } from "@/lib/tlog/store";
import { witnessLatest } from "@/lib/tlog/witness";
import { joinPublishedKeys } from "@/lib/signing/published-keys";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";
import { subscribeWatches } from "@/lib/watches/watch-subscriber";
import { log, routeConsoleToLog } from "@/lib/log/logger";
import { sweepOnce } from "./sweep";
import { flushSightings } from "@/lib/public/embed/sightings/flush-sightings";

const g = globalThis as unknown as { __prsBooted?: boolean };

/** Runs once per server process before it answers: migrate, load keys, start the sweeps. */
export async function boot() {
  if (g.__prsBooted) return;
  g.__prsBooted = true;
  routeConsoleToLog(); // before anything can fail: JSON lines, no query parameters in the log
  const env = getEnv();
  // Announce the process before opening the embedded database, so the admin CLI waits
  // for this server instead of opening the same data folder itself.
  runtime.__prsRuntime = writeRuntimeFile();
  runPgliteInWorker(); // the embedded database gets its own thread in the server
  const handle = await getHandle(); // opens the database and applies migrations
  keyring(); // generates the first signing key in the embedded default
  allowances(); // a malformed PLAN_LIMITS stops the start instead of failing requests
  await handle.listen(STATUS_CHANNEL, (id) => invalidateStatus(id));
  // Publish this process's keys before it signs anything; follow keys other instances add.
  await joinPublishedKeys(handle);
  await claimNoteKey(handle.db, noteKey().vkey); // checkpoints: one note key for the whole log
  const keys = keyring();
  await fillLookupValues(handle.db);
  await fillLookalikeKeys(handle.db);
  try {
    for (let n = await backfillLog(handle.db); n > 0; n = await backfillLog(handle.db)) log().info({ records: n }, "transparency log: records issued before it began, logged");
  } catch (e) {
    log().error({ err: e }, "transparency log: logging earlier records failed");
  }
  log().info(
    {
      database: handle.mode,
      ...(handle.mode === "pglite" ? { pglite_dir: `${env.dataDir}/pglite` } : {}),
      signing_kid: keys.active.kid,
      public_base_url: env.publicBaseUrl,
      webhook_worker: env.WEBHOOK_WORKER,
    },
    `started: database ${handle.mode}, signing key ${keys.active.kid}`,
  );
  if (env.WEBHOOK_ALLOW_INSECURE === "1") log().warn(INSECURE_WEBHOOKS_WARNING);
  if (env.PASSWORD_HASH_FAST === "1") log().warn(FAST_PASSWORD_HASH_WARNING);
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return; // a slow round (DNS timeouts) must not overlap the next
    sweeping = true;
    try {
      // One instance sweeps at a time; the others skip the round (re-checks call outside services).
      await handle.exclusively(SWEEP_LOCK, () => sweepOnce(handle));
    } catch (e) {
      log().error({ err: e }, "sweep failed");
    } finally {
      sweeping = false;
    }
  };
  setInterval(sweep, env.EXPIRY_SWEEP_INTERVAL_MS).unref();
  void sweep();
  startCheckpointing(handle, env.LOG_CHECKPOINT_INTERVAL_MS);
  startSightingsFlush(handle.db, env.BADGE_SIGHTINGS_FLUSH_MS);
  if (env.WEBHOOK_WORKER === "on") {
    subscribeWatches(); // the impersonation watches take issued records and renames from the outbox
    startDeliveryWorker(handle.db);
  }
}

/** The advisory-lock keys of the periodic sweep and of the log's checkpointing (migrations use 727001). */
const SWEEP_LOCK = 727002;
const CHECKPOINT_LOCK = 727003;

/**
 * The transparency log's new entries go into the tree and a checkpoint is signed every
 * `intervalMs` at most, by one instance at a time, then sent to the witnesses (docs/verify.md).
 */
function startCheckpointing(handle: Awaited<ReturnType<typeof getHandle>>, intervalMs: number) {
  let running = false;
  const tick = async () => {
    if (running || logConflict()) return;
    running = true;
    try {
      await handle.exclusively(CHECKPOINT_LOCK, async () => {
        await integrate(handle.db);
        // Witnesses (LOG_WITNESSES) cosign the latest checkpoint; one short of quorum is asked again next round.
        await witnessLatest(handle.db);
      });
    } catch (e) {
      if (e instanceof LogConflict) {
        // Loudly, and for good: no checkpoint is signed over a log that disagrees with itself.
        noteLogConflict(e.message);
        clearInterval(timer);
        log().fatal({ err: e }, "transparency log: CONFLICT — stored log disagrees with its entries; checkpoints stopped, readiness fails");
      } else {
        log().error({ err: e }, "transparency log: checkpoint failed");
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  void tick();
}

/**
 * Badge sightings counted in memory (lib/public/embed/sightings) go to the database every
 * `intervalMs`, from every instance (counts add up; each new uncovered host is reported once).
 * What is counted when the process stops between two rounds is lost: at most one interval's.
 */
function startSightingsFlush(db: Awaited<ReturnType<typeof getHandle>>["db"], intervalMs: number) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const r = await flushSightings(db);
      if (r.reported > 0) log().info(r, "badge sightings: badges shown on hosts their records do not cover, reported to their owners");
    } catch (e) {
      log().error({ err: e }, "badge sightings: flush failed");
    } finally {
      running = false;
    }
  };
  setInterval(tick, intervalMs).unref();
}

/**
 * Records issued before the lookup stored values (or before their type declared any) get
 * them before the server answers, so a lookup finds them from the first request. One pass,
 * idempotent; once done it finds nothing to do. A failure is logged and the start goes on:
 * those records are then not found until the next start.
 */
/** Watches made before look-alike keys existed get them before the server answers (as fillLookupValues). */
async function fillLookalikeKeys(db: Parameters<typeof backfillLookalikeKeys>[0]) {
  try {
    const n = await backfillLookalikeKeys(db);
    if (n > 0) log().info({ watches: n }, "watches: stored the look-alike keys of watches made before");
  } catch (e) {
    log().error({ err: e }, "watches: filling in look-alike keys failed");
  }
}

async function fillLookupValues(db: Parameters<typeof backfillRecordValues>[0]) {
  try {
    const n = await backfillRecordValues(db);
    if (n > 0) log().info({ values: n }, "lookup: stored the values of records issued before");
  } catch (e) {
    log().error({ err: e }, "lookup: filling in the values of earlier records failed");
  }
}

// `npm run worker`: the outbox worker (webhook deliveries, queued mail, the watches' tasks) on its own, for deployments that run it
// apart from the web server (set WEBHOOK_WORKER=off on the servers then). Several workers
// may run at once: deliveries are claimed with leases taken under SKIP LOCKED.
import { closeDb, getHandle } from "@/lib/db/client";
import { getEnv, INSECURE_WEBHOOKS_WARNING } from "@/lib/env";
import { log, routeConsoleToLog } from "@/lib/log/logger";
import { keyring } from "@/lib/signing/keys";
import { joinPublishedKeys } from "@/lib/signing/published-keys";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";
import { subscribeWatches } from "@/lib/watches/watch-subscriber";

routeConsoleToLog(); // JSON lines, as the server writes them

async function main() {
  if (!getEnv().DATABASE_URL) {
    log().fatal("npm run worker needs DATABASE_URL: the embedded database admits one process, and the server runs the worker itself.");
    process.exit(2);
  }
  if (getEnv().WEBHOOK_ALLOW_INSECURE === "1") log().warn(INSECURE_WEBHOOKS_WARNING);
  const handle = await getHandle();
  // Deliveries are also signed (v1a) with the service's signing key: like a server, publish
  // this process's keys and follow the published set first, so it signs only with a key
  // every instance's JWKS lists.
  await joinPublishedKeys(handle);
  subscribeWatches(); // the impersonation watches take issued records and renames from the outbox
  const stop = startDeliveryWorker(handle.db);
  log().info({ database: "postgres", signing_kid: keyring().active.kid }, "webhook worker running");
  const shutdown = async () => {
    await stop();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err) => {
  log().fatal({ err }, "webhook worker stopped");
  process.exit(1);
});

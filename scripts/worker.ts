// `npm run worker`: the webhook delivery worker on its own, for deployments that run it
// apart from the web server (set WEBHOOK_WORKER=off on the servers then). Several workers
// may run at once: deliveries are claimed with leases taken under SKIP LOCKED.
import { closeDb, getDb } from "@/lib/db/client";
import { getEnv, INSECURE_WEBHOOKS_WARNING } from "@/lib/env";
import { log, routeConsoleToLog } from "@/lib/log/logger";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";

routeConsoleToLog(); // JSON lines, as the server writes them

async function main() {
  if (!getEnv().DATABASE_URL) {
    log().fatal("npm run worker needs DATABASE_URL: the embedded database admits one process, and the server runs the worker itself.");
    process.exit(2);
  }
  if (getEnv().WEBHOOK_ALLOW_INSECURE === "1") log().warn(INSECURE_WEBHOOKS_WARNING);
  const stop = startDeliveryWorker(await getDb());
  log().info({ database: "postgres" }, "webhook worker running");
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

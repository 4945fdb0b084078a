// `npm run worker`: the webhook delivery worker on its own, for deployments that run it
// apart from the web server (set WEBHOOK_WORKER=off on the servers then). Several workers
// may run at once: deliveries are claimed with leases taken under SKIP LOCKED.
import { closeDb, getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";

async function main() {
  if (!getEnv().DATABASE_URL) {
    console.error(
      "npm run worker needs DATABASE_URL: the embedded database admits one process, and the server runs the worker itself.",
    );
    process.exit(2);
  }
  const stop = startDeliveryWorker(await getDb());
  console.log("[prs] webhook worker running");
  const shutdown = async () => {
    await stop();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

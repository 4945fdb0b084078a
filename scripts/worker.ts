// `npm run worker`: the webhook delivery worker on its own, for deployments that run it
// apart from the web server (set WEBHOOK_WORKER=off on the servers then). Several workers
// may run at once: deliveries are claimed with leases taken under SKIP LOCKED.
import { closeDb, getDb } from "@/lib/db/client";
import { getEnv, INSECURE_WEBHOOKS_WARNING } from "@/lib/env";
import { redactConsoleErrors } from "@/lib/log/redact-console";
import { startDeliveryWorker } from "@/lib/webhooks/delivery-worker";

redactConsoleErrors();

async function main() {
  if (!getEnv().DATABASE_URL) {
    console.error(
      "npm run worker needs DATABASE_URL: the embedded database admits one process, and the server runs the worker itself.",
    );
    process.exit(2);
  }
  if (getEnv().WEBHOOK_ALLOW_INSECURE === "1") console.warn(INSECURE_WEBHOOKS_WARNING);
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

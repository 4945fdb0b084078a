import type { DbOrTx } from "@/lib/db/client";
import { queueTask } from "@/lib/outbox/tasks";

/**
 * Records issued live and active, handed — in the transaction that issues them — to the outbox's
 * subscribers (lib/outbox/tasks.ts: the impersonation watches, lib/watches/watch-subscriber.ts),
 * which take them once it commits. One task for a whole batch; none for sandbox records or
 * submissions.
 */
export async function announceIssued(tx: DbOrTx, rows: readonly { id: string; environment: string; status: string }[]) {
  const ids = rows.filter((r) => r.environment === "live" && r.status === "active").map((r) => r.id);
  if (ids.length) await queueTask(tx, "records.issued", { ids });
}

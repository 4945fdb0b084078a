import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { STATUS_CHANNEL } from "./status-cache";

/** Inside the changing transaction: other processes drop their cached status on commit. */
export async function notifyStatusChanged(tx: DbOrTx, ids: string[]) {
  for (const id of ids) await tx.execute(sql`select pg_notify(${STATUS_CHANNEL}, ${id})`);
}

import { and, eq, inArray, lte } from "drizzle-orm";
import { files } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { FILE_RETENTION_MS } from "./store-file";

/** The sweep: documents past their `deleteAfter` are deleted (at most `limit` a round). */
export async function purgeExpiredFiles(db: Db, now = new Date(), limit = 200): Promise<number> {
  const due = await db.select({ id: files.id }).from(files).where(lte(files.deleteAfter, now)).orderBy(files.deleteAfter).limit(limit);
  if (due.length === 0) return 0;
  const gone = await db.delete(files).where(and(inArray(files.id, due.map((d) => d.id)), lte(files.deleteAfter, now))).returning({ id: files.id });
  return gone.length;
}

/** A decision used these files (inside its transaction): kept 90 days from `decidedAt`, then deleted. */
export async function keepFilesAfterDecision(tx: DbOrTx, accountId: string, ids: readonly string[], usedBy: string, decidedAt: Date) {
  if (ids.length === 0) return;
  await tx.update(files)
    .set({ usedBy, deleteAfter: new Date(decidedAt.getTime() + FILE_RETENTION_MS) })
    .where(and(eq(files.accountId, accountId), inArray(files.id, [...ids])));
}

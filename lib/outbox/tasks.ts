import { and, asc, eq, inArray, lt, notInArray, sql } from "drizzle-orm";
import { outboxTasks } from "@/drizzle/schema";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import { log } from "@/lib/log/logger";
import { nudgeOutbox } from "./wake";

/**
 * The outbox's own subscribers (issue 40): a write that others react to queues a task in its
 * transaction (`queueTask`) instead of calling them, and the outbox worker hands each task, after
 * the write committed, to the handler subscribed to its kind (`onOutboxTask`), in order, in a
 * transaction of its own that also deletes it — so a handler's work and the task's end commit
 * together, and a rolled-back write leaves no task. The impersonation watches subscribe to
 * issued records and renamed accounts this way (lib/watches/watch-subscriber.ts): the issuing
 * path never imports them, and their mails are queued, never sent inside a request.
 */
export type TaskKind = "records.issued" | "account.renamed";
type Handler = (tx: Tx, payload: Record<string, unknown>, at: Date) => Promise<void>;

/** A task that failed this often is left, with its last error, for an operator to look at. */
export const TASK_MAX_ATTEMPTS = 5;

const g = globalThis as unknown as { __prsTaskHandlers?: Map<TaskKind, Handler> };
const handlers = (g.__prsTaskHandlers ??= new Map<TaskKind, Handler>());

/** Subscribe to a kind of task (once per process, at start). A process takes only the kinds it subscribed to. */
export function onOutboxTask(kind: TaskKind, handler: Handler) {
  handlers.set(kind, handler);
}

/** Queue a task in the caller's transaction; the worker takes it once that commits. */
export async function queueTask(tx: DbOrTx, kind: TaskKind, payload: Record<string, unknown>) {
  await tx.insert(outboxTasks).values({ kind, payload });
  nudgeOutbox();
}

/**
 * Run up to `limit` queued tasks, oldest first, each in its own transaction (skip locked: the
 * workers of several processes share the queue). A handler that throws leaves its task (its
 * attempts counted, its error kept) and the round goes on with the next. Returns how many ran.
 */
export async function runOutboxTasks(db: Db, limit = 50): Promise<number> {
  const kinds = [...handlers.keys()];
  if (kinds.length === 0) return 0;
  const failed: number[] = [];
  let ran = 0;
  for (let i = 0; i < limit; i++) {
    let taken: { id: number; kind: string } | undefined;
    try {
      const done = await db.transaction(async (tx) => {
        const [task] = await tx.select().from(outboxTasks)
          .where(and(inArray(outboxTasks.kind, kinds), lt(outboxTasks.attempts, TASK_MAX_ATTEMPTS), failed.length ? notInArray(outboxTasks.id, failed) : sql`true`))
          .orderBy(asc(outboxTasks.id)).limit(1).for("update", { skipLocked: true });
        if (!task) return false;
        taken = task;
        await handlers.get(task.kind as TaskKind)!(tx, task.payload, task.createdAt);
        await tx.delete(outboxTasks).where(eq(outboxTasks.id, task.id));
        return true;
      });
      if (!done) break;
      ran++;
    } catch (err) {
      if (!taken) throw err;
      failed.push(taken.id);
      log().error({ err, task: taken.id, kind: taken.kind }, "an outbox task failed; it will be tried again");
      await db.update(outboxTasks)
        .set({ attempts: sql`${outboxTasks.attempts} + 1`, lastError: String((err as Error)?.message ?? err).slice(0, 500) })
        .where(eq(outboxTasks.id, taken.id));
    }
  }
  return ran;
}

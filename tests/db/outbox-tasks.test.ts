import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

/*
 * The outbox's own subscribers (lib/outbox/tasks.ts): a task exists only if the write that
 * queued it committed; its handler's work and its deletion commit together; tasks run in the
 * order they were queued; a handler that throws leaves its task with the attempt counted and
 * the error kept, the round goes on, and after TASK_MAX_ATTEMPTS the task is left for an operator.
 */
const { db } = await dataLayerTest({ ownDatabase: "outbox_tasks" }); // on PostgreSQL, no test server's worker takes these tasks
const { outboxTasks } = await import("@/drizzle/schema");
const { onOutboxTask, queueTask, runOutboxTasks, TASK_MAX_ATTEMPTS } = await import("@/lib/outbox/tasks");
const { asc } = await import("drizzle-orm");

const ran: string[] = [];
onOutboxTask("records.issued", async (tx, payload) => {
  const tag = String(payload.tag);
  if (tag.startsWith("fail")) {
    await queueTask(tx, "records.issued", { tag: `written by ${tag}` }); // must roll back with the failure
    throw new Error(`handler refused ${tag}`);
  }
  ran.push(tag);
});
const left = () => db.select().from(outboxTasks).orderBy(asc(outboxTasks.id));

describe("outbox tasks", () => {
  it("a rolled-back write leaves no task; committed ones run after it, in queue order, and are gone once done", async () => {
    await db.transaction(async (tx) => {
      await queueTask(tx, "records.issued", { tag: "rolled back" });
      tx.rollback();
    }).catch(() => undefined);
    expect(await left()).toEqual([]);
    await db.transaction(async (tx) => {
      await queueTask(tx, "records.issued", { tag: "a" });
      await queueTask(tx, "records.issued", { tag: "b" });
    });
    await queueTask(db, "records.issued", { tag: "c" });
    expect(await runOutboxTasks(db)).toBe(3);
    expect(ran).toEqual(["a", "b", "c"]);
    expect(await left()).toEqual([]);
  });

  it("a failing handler leaves its task, counted with its error, without its writes; the round goes on; after the last try it is left", async () => {
    ran.length = 0;
    await queueTask(db, "records.issued", { tag: "fail-1" });
    await queueTask(db, "records.issued", { tag: "after" });
    expect(await runOutboxTasks(db)).toBe(1); // "after" ran; "fail-1" did not
    expect(ran).toEqual(["after"]);
    let rows = await left();
    expect(rows).toHaveLength(1); // the task the failing handler queued rolled back with it
    expect(rows[0]).toMatchObject({ payload: { tag: "fail-1" }, attempts: 1, lastError: "handler refused fail-1" });
    for (let round = 2; round <= TASK_MAX_ATTEMPTS + 2; round++) await runOutboxTasks(db);
    rows = await left();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attempts).toBe(TASK_MAX_ATTEMPTS); // tried exactly that often, then left alone
    expect(ran).toEqual(["after"]);
  });
});

import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { logCheckpoints, logCosignatures, logHead } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { parseCosignerVkey, type Cosigner } from "./cosignature";

export type Checkpoint = { size: number; rootHash: string; note: string };

/** The latest signed checkpoint, witnessed or not: for the integrator and the witness client, never for a public answer. */
export async function latestCheckpoint(db: DbOrTx): Promise<Checkpoint | null> {
  const [c] = await db.select({ size: logCheckpoints.size, rootHash: logCheckpoints.rootHash, note: logCheckpoints.note })
    .from(logCheckpoints).orderBy(desc(logCheckpoints.size)).limit(1);
  return c ?? null;
}

/**
 * With witnesses configured (LOG_WITNESSES, docs/verify.md "Witnesses"), only a checkpoint
 * that LOG_WITNESS_QUORUM of them cosigned is published: a log whose witnesses are down stops
 * publishing rather than hand out a tree nobody else has seen.
 */
export type Witness = Cosigner & { url: string };

const g = globalThis as unknown as { __prsWitnesses?: { from: unknown; list: Witness[] } };

export function witnesses(): Witness[] {
  const configured = getEnv().LOG_WITNESSES;
  const cached = g.__prsWitnesses;
  if (cached && cached.from === configured) return cached.list;
  const list = (configured ?? []).map((w) => ({ ...parseCosignerVkey(w.vkey), url: w.url }));
  g.__prsWitnesses = { from: configured, list };
  return list;
}

/** Cosignatures a checkpoint needs before it is published; 0 when no witness is configured. */
export const witnessQuorum = () => (witnesses().length === 0 ? 0 : (getEnv().LOG_WITNESS_QUORUM ?? witnesses().length));

/**
 * The checkpoint the log publishes: the latest one, or, with witnesses configured, the one
 * `log_head.published_size` names (the newest that at least the quorum of them cosigned, moved
 * on by the integrator: refreshPublished), as a signed note with their cosignature lines after
 * the log's. Every public answer that hands out a checkpoint uses this one. Three primary-key
 * reads whatever the log's length or how long the witnesses have been down.
 */
export async function publishedCheckpoint(db: DbOrTx): Promise<Checkpoint | null> {
  const ws = witnesses();
  if (ws.length === 0) return latestCheckpoint(db);
  const [head] = await db.select({ size: logHead.publishedSize }).from(logHead).where(eq(logHead.id, 1));
  let size = head?.size ?? null;
  let c = size === null ? null : await cosigned(db, ws, size);
  // The witnesses or the quorum were changed and the integrator has not caught up yet: what
  // the stored size names no longer has the quorum, so look for the newest one that has.
  if (size !== null && !c) {
    size = await newestWithQuorum(db, ws, null);
    c = size === null ? null : await cosigned(db, ws, size);
  }
  return c;
}

/** The checkpoint of `size` with the configured witnesses' cosignature lines, or null if fewer than the quorum cosigned it. */
async function cosigned(db: DbOrTx, ws: readonly Witness[], size: number): Promise<Checkpoint | null> {
  const names = ws.map((w) => w.name);
  const [[c], lines] = await Promise.all([
    db.select({ size: logCheckpoints.size, rootHash: logCheckpoints.rootHash, note: logCheckpoints.note }).from(logCheckpoints).where(eq(logCheckpoints.size, size)),
    db.select({ witnessName: logCosignatures.witnessName, line: logCosignatures.line }).from(logCosignatures)
      .where(and(eq(logCosignatures.checkpointSize, size), inArray(logCosignatures.witnessName, names))),
  ]);
  if (!c || lines.length < witnessQuorum()) return null;
  const ordered = ws.flatMap((w) => lines.filter((l) => l.witnessName === w.name).map((l) => `${l.line}\n`));
  return { ...c, note: c.note + ordered.join("") };
}

/** The newest checkpoint size (above `above`, if given) that at least the quorum of the configured witnesses cosigned. */
async function newestWithQuorum(db: DbOrTx, ws: readonly Witness[], above: number | null): Promise<number | null> {
  const [r] = await db.select({ size: logCosignatures.checkpointSize }).from(logCosignatures)
    .where(and(inArray(logCosignatures.witnessName, ws.map((w) => w.name)), above === null ? undefined : gt(logCosignatures.checkpointSize, above)))
    .groupBy(logCosignatures.checkpointSize)
    .having(sql`count(*) >= ${witnessQuorum()}`)
    .orderBy(desc(logCosignatures.checkpointSize)).limit(1);
  return r?.size ?? null;
}

/**
 * Move `log_head.published_size` on to the newest checkpoint the quorum cosigned (the
 * integrator, after each round of the witness client, one process at a time). Looks only above
 * the published size; from scratch when the configured witnesses no longer give that size a
 * quorum (LOG_WITNESSES or LOG_WITNESS_QUORUM changed), which may move it back.
 */
export async function refreshPublished(db: DbOrTx): Promise<number | null> {
  const ws = witnesses();
  if (ws.length === 0) return null;
  const [head] = await db.select({ size: logHead.publishedSize }).from(logHead).where(eq(logHead.id, 1));
  const current = head?.size ?? null;
  const newer = await newestWithQuorum(db, ws, current);
  let next = newer ?? current;
  if (newer === null && current !== null && !(await cosigned(db, ws, current))) next = await newestWithQuorum(db, ws, null);
  if (next !== current) await db.update(logHead).set({ publishedSize: next }).where(eq(logHead.id, 1));
  return next;
}

import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { logCheckpoints, logCosignatures } from "@/drizzle/schema";
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
 * The checkpoint the log publishes: the latest one, or, with witnesses configured, the latest
 * that at least the quorum of them cosigned, as a signed note with their cosignature lines
 * after the log's. Every public answer that hands out a checkpoint uses this one.
 */
export async function publishedCheckpoint(db: DbOrTx): Promise<Checkpoint | null> {
  const ws = witnesses();
  if (ws.length === 0) return latestCheckpoint(db);
  const names = ws.map((w) => w.name);
  const [c] = await db.select({ size: logCheckpoints.size, rootHash: logCheckpoints.rootHash, note: logCheckpoints.note }).from(logCheckpoints)
    .where(sql`(select count(*) from ${logCosignatures} s where s.checkpoint_size = ${logCheckpoints.size} and s.witness_name in (${sql.join(names.map((n) => sql`${n}`), sql`,`)})) >= ${witnessQuorum()}`)
    .orderBy(desc(logCheckpoints.size)).limit(1);
  if (!c) return null;
  const lines = await db.select({ witnessName: logCosignatures.witnessName, line: logCosignatures.line }).from(logCosignatures)
    .where(and(eq(logCosignatures.checkpointSize, c.size), inArray(logCosignatures.witnessName, names)));
  const ordered = ws.flatMap((w) => lines.filter((l) => l.witnessName === w.name).map((l) => `${l.line}\n`));
  return { ...c, note: c.note + ordered.join("") };
}


import { eq, inArray } from "drizzle-orm";
import { logCosignatures, logWitnessState } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";
import { checkCosignatureLine, noteBody } from "./cosignature";
import { consistencyProof } from "./merkle";
import { latestCheckpoint, refreshPublished, witnesses, type Checkpoint, type Witness } from "./published";
import { dbNodes } from "./store";

/**
 * Witnessed checkpoints (C2SP tlog-witness, docs/verify.md "Witnesses"). After the integrator
 * signs a checkpoint, the newest one goes to every witness of LOG_WITNESSES with a consistency
 * proof from the size that witness last cosigned; the cosignatures it returns are checked and
 * stored. What is published is decided in published.ts.
 */
type Outcome = { witness: string; result: "cosigned" | "already" | "refused"; detail?: string };

/**
 * Ask every witness that has not cosigned the latest checkpoint for its cosignature, in
 * parallel. Called by the integrator after each round (boot.ts), under its lock: a checkpoint
 * short of quorum is asked again next round, and only ever the latest one.
 */
export async function witnessLatest(db: Db): Promise<Outcome[]> {
  const ws = witnesses();
  if (ws.length === 0) return [];
  const checkpoint = await latestCheckpoint(db);
  if (!checkpoint) return [];
  const [states, have] = await Promise.all([
    db.select().from(logWitnessState).where(inArray(logWitnessState.witnessName, ws.map((w) => w.name))),
    db.select({ witnessName: logCosignatures.witnessName }).from(logCosignatures).where(eq(logCosignatures.checkpointSize, checkpoint.size)),
  ]);
  const cosigned = new Set(have.map((h) => h.witnessName));
  const outcomes = await Promise.all(ws.map(async (w): Promise<Outcome> => {
    if (cosigned.has(w.name)) return { witness: w.name, result: "already" };
    const state = states.find((s) => s.witnessName === w.name);
    try {
      await submit(db, w, checkpoint, state?.size ?? 0);
      if (state?.lastError) log().info({ witness: w.name, size: checkpoint.size }, `transparency log: witness ${w.name} cosigns again`);
      return { witness: w.name, result: "cosigned" };
    } catch (e) {
      const detail = (e instanceof WitnessRefusal ? e.message : `unreachable: ${(e as Error).message}`).slice(0, 1000);
      const now = new Date();
      // Asked again every round: warn when the reason changes, and at most every 5 minutes for the same one.
      const repeated = state?.lastError === detail && state.lastErrorAt && now.getTime() - state.lastErrorAt.getTime() < WARN_AGAIN_MS;
      await noteWitness(db, w.name, repeated ? { lastError: detail } : { lastError: detail, lastErrorAt: now });
      if (!repeated) log().warn({ witness: w.name, size: checkpoint.size, error: detail }, `transparency log: witness ${w.name} did not cosign checkpoint ${checkpoint.size}`);
      return { witness: w.name, result: "refused", detail };
    }
  }));
  // After every answer is stored (their transactions ran side by side, none saw all of them).
  await refreshPublished(db);
  return outcomes;
}

class WitnessRefusal extends Error {}

const WARN_AGAIN_MS = 5 * 60_000;

/** One add-checkpoint, and once more from the size a 409 names. */
async function submit(db: Db, w: Witness, checkpoint: Checkpoint, old: number, retried = false): Promise<void> {
  if (old > checkpoint.size) {
    throw new WitnessRefusal(`the witness has cosigned a tree of ${old} entries, larger than this log's ${checkpoint.size}: it saw another history`);
  }
  const proof = await consistencyProof(old, checkpoint.size, dbNodes(db));
  const body = `old ${old}\n${proof.map((h) => `${Buffer.from(h, "hex").toString("base64")}\n`).join("")}\n${checkpoint.note}`;
  const res = await fetch(`${w.url}/add-checkpoint`, {
    method: "POST", body, headers: { "Content-Type": "text/plain; charset=utf-8" }, redirect: "error",
    signal: AbortSignal.timeout(getEnv().LOG_WITNESS_TIMEOUT_MS),
  });
  const text = (await res.text()).slice(0, 100_000);
  if (res.status === 409) {
    const m = /^(0|[1-9][0-9]{0,15})\n$/.exec(text);
    if (!m) throw new WitnessRefusal(`409 without a tree size (${JSON.stringify(text.slice(0, 80))})`);
    const size = Number(m[1]);
    await noteWitness(db, w.name, { size });
    if (retried) throw new WitnessRefusal(`409 again: the witness now says ${size}`);
    return submit(db, w, checkpoint, size, true);
  }
  // Without the sizes: the same refusal round after round is one warning (witnessLatest).
  if (res.status !== 200) throw new WitnessRefusal(`${res.status} from add-checkpoint: ${JSON.stringify(text.slice(0, 200))}`);
  const checked = cosignatureOf(text, noteBody(checkpoint.note), w);
  await db.transaction(async (tx) => {
    await tx.insert(logCosignatures).values({ checkpointSize: checkpoint.size, witnessName: w.name, line: checked.line, signedAt: checked.signedAt })
      .onConflictDoNothing();
    await noteWitness(tx, w.name, { size: checkpoint.size, lastError: null, lastErrorAt: null });
  });
}

/** The witness's valid cosignature among the lines it returned; lines of other keys are ignored, a bad one of its key refused. */
function cosignatureOf(text: string, body: string, w: Witness): { line: string; signedAt: number } {
  if (!text.endsWith("\n")) throw new WitnessRefusal("the answer does not end with a newline");
  let found: { line: string; signedAt: number } | null = null;
  for (const line of text.slice(0, -1).split("\n")) {
    if (!line.startsWith("\u2014 ")) throw new WitnessRefusal(`the answer has a line that is not a signature line: ${JSON.stringify(line.slice(0, 80))}`);
    const r = checkCosignatureLine(line, body, w);
    if (r.kind === "bad") throw new WitnessRefusal(r.error);
    if (r.kind === "ok" && !found) found = { line, signedAt: r.signedAt };
  }
  if (!found) throw new WitnessRefusal(`the answer has no cosignature by ${w.name}+${w.keyId.toString("hex")}`);
  return found;
}

async function noteWitness(db: DbOrTx, name: string, set: { size?: number; lastError?: string | null; lastErrorAt?: Date | null }) {
  const now = new Date();
  await db.insert(logWitnessState).values({ witnessName: name, size: set.size ?? 0, lastError: set.lastError ?? null, lastErrorAt: set.lastErrorAt ?? null, updatedAt: now })
    .onConflictDoUpdate({ target: logWitnessState.witnessName, set: { ...set, updatedAt: now } });
}

/** For operators (health, metrics): each configured witness's last cosigned size and last error. */
export async function witnessStates(db: DbOrTx) {
  const ws = witnesses();
  if (ws.length === 0) return [];
  const rows = await db.select().from(logWitnessState).where(inArray(logWitnessState.witnessName, ws.map((w) => w.name)));
  return ws.map((w) => {
    const r = rows.find((x) => x.witnessName === w.name);
    return { name: w.name, size: r?.size ?? 0, lastError: r?.lastError ?? null, lastErrorAt: r?.lastErrorAt ?? null };
  });
}

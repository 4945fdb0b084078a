import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { logCheckpoints, logEntries, logHead, logNodes } from "@/drizzle/schema";
import { rowsOf, type Db, type DbOrTx } from "@/lib/db/client";
import { canonicalJson } from "@/lib/signing/canonical";
import { coordKey, inclusionProof, leafHash, nodesCompletedBy, rootHash, type Coord, type NodeSource } from "./merkle";
import { checkpointText, signNote } from "./note";
import { publishedCheckpoint, type Checkpoint } from "./published";
import { entryBundle, TILE_HEIGHT, TILE_WIDTH, type TileRef } from "./tiles";

/**
 * The transparency log in the database (docs/verify.md): entries appended in the transaction
 * of the change they record, integrated into the Merkle tree and checkpointed by one
 * process at a time (lib/server/boot.ts), served as C2SP tiles (app/log).
 *
 * Live records only: sandbox records are test data, private to their account, and never
 * logged (docs/decisions.md, "Transparency log").
 */
export type LogEvent = "issued" | "status_changed" | "signing_key_published";
export type LogLeaf = { leaf: string; recordId: string | null };

export function recordLeaf(
  r: { id: string; environment: string; payloadSha256: string | null }, event: Exclude<LogEvent, "signing_key_published">, status: string, at: Date,
): LogLeaf | null {
  if (r.environment !== "live" || !r.payloadSha256) return null;
  return {
    recordId: r.id,
    leaf: canonicalJson({ verification_id: r.id, event, status, at: at.toISOString(), payload_sha256: r.payloadSha256, environment: r.environment }),
  };
}

export function keyLeaf(publicJwkSha256: string, at: Date): LogLeaf {
  return {
    recordId: null,
    leaf: canonicalJson({
      verification_id: null, event: "signing_key_published", status: "active", at: at.toISOString(), payload_sha256: publicJwkSha256, environment: "live",
    }),
  };
}

const valuesOf = (leaves: readonly LogLeaf[]) =>
  sql.join(leaves.map((l, i) => sql`(${i}::int, ${l.leaf}::text, ${l.recordId}::text)`), sql`,`);

/**
 * Append in the caller's transaction. Moving `log_head.size` on locks its row until the
 * transaction ends: appends are serialised, indexes gap-free and in commit order.
 */
export async function appendLeaves(tx: DbOrTx, leaves: readonly (LogLeaf | null)[]): Promise<void> {
  const present = leaves.filter((l): l is LogLeaf => l !== null);
  if (present.length === 0) return;
  await tx.execute(sql`
    with head as (update log_head set size = size + ${present.length} where id = 1 returning size - ${present.length} as start)
    insert into log_entries (idx, leaf, record_id)
    select head.start + v.ord, v.leaf, v.record_id from head, (values ${valuesOf(present)}) as v(ord, leaf, record_id)`);
}

/** The same append as CTEs of a larger statement (insert-record-bundle.ts), done only when `guard` has rows. */
export function appendLeavesCte(leaves: readonly LogLeaf[], guard: SQL): SQL {
  const n = leaves.length;
  return sql`loghead as (
      update log_head set size = size + ${n} where id = 1 and exists (${guard}) returning size - ${n} as start
    ), logent as (
      insert into log_entries (idx, leaf, record_id)
      select loghead.start + v.ord, v.leaf, v.record_id from loghead, (values ${valuesOf(leaves)}) as v(ord, leaf, record_id)
      returning 1
    )`;
}

/** Stored nodes, read in one query. */
export const dbNodes = (db: DbOrTx): NodeSource => async (coords) => {
  const map = new Map<string, string>();
  if (coords.length === 0) return map;
  const keys = [...new Set(coords.map(coordKey))];
  const rows = rowsOf<{ level: number; idx: string | number; hash: string }>(await db.execute(sql`
    select level, idx, hash from log_nodes where (level, idx) in (${sql.join(keys.map((k) => {
      const [l, i] = k.split(":");
      return sql`(${Number(l)}::int, ${Number(i)}::bigint)`;
    }), sql`,`)})`));
  for (const r of rows) map.set(`${r.level}:${Number(r.idx)}`, r.hash);
  return map;
};

/**
 * dbNodes for many proofs at once: every call made in the same turn of the event loop (the
 * proofs of one answer, started together) is read by one query, not one query per proof.
 */
export const batchedDbNodes = (db: DbOrTx): NodeSource => {
  type Waiting = { coords: Coord[]; done: (nodes: Promise<Map<string, string>>) => void };
  let waiting: Waiting[] | null = null;
  return (coords) => new Promise((resolve) => {
    let batch = waiting;
    if (!batch) {
      const started: Waiting[] = (batch = waiting = []);
      queueMicrotask(() => {
        waiting = null;
        const all = dbNodes(db)(started.flatMap((b) => b.coords));
        for (const b of started) b.done(all);
      });
    }
    batch.push({ coords: [...coords], done: resolve });
  });
};

export { latestCheckpoint, publishedCheckpoint, type Checkpoint } from "./published";

export async function checkpointOfSize(db: DbOrTx, size: number): Promise<Checkpoint | null> {
  const [c] = await db.select({ size: logCheckpoints.size, rootHash: logCheckpoints.rootHash, note: logCheckpoints.note })
    .from(logCheckpoints).where(eq(logCheckpoints.size, size));
  return c ?? null;
}

export class NoteKeyConflict extends Error {}

/**
 * The stored log disagrees with itself: a node or checkpoint already stored differs from what
 * its entries give. Never papered over — the integrator stops and says so (boot.ts), since
 * signing on would publish a second history.
 */
export class LogConflict extends Error {
  override name = "LogConflict";
}

/** The nodes of `chunk` that were already stored (not in `added`) must hold the same hash. */
async function sameAsStored(tx: DbOrTx, chunk: { level: number; idx: number; hash: string }[], added: { level: number; idx: number }[]) {
  const inserted = new Set(added.map((a) => coordKey({ level: a.level, idx: Number(a.idx) })));
  const kept = chunk.filter((n) => !inserted.has(coordKey(n)));
  const stored = await dbNodes(tx)(kept);
  for (const n of kept) {
    const h = stored.get(coordKey(n));
    if (h !== n.hash) throw new LogConflict(`log node ${coordKey(n)} is stored as ${h}, its entries give ${n.hash}`);
  }
}

/**
 * The first process to start fixes the log's verifier key; every later one must hold the same
 * note key (LOG_NOTE_KEY on every instance), or it refuses to start: checkpoints signed by
 * different keys would make the log unverifiable.
 */
export async function claimNoteKey(db: Db, vkey: string): Promise<void> {
  await db.update(logHead).set({ noteVkey: vkey }).where(and(eq(logHead.id, 1), sql`${logHead.noteVkey} is null`));
  const [head] = await db.select({ noteVkey: logHead.noteVkey }).from(logHead).where(eq(logHead.id, 1));
  // The key itself must match; the name is the origin, which follows PUBLIC_BASE_URL.
  const keyOf = (v: string | null | undefined) => (v ?? "").split("+").slice(2).join("+");
  if (keyOf(head?.noteVkey) !== keyOf(vkey)) {
    throw new NoteKeyConflict(
      `The transparency log is signed with ${head?.noteVkey}, not with this process's note key ${vkey}: set LOG_NOTE_KEY to the log's key on every instance.`,
    );
  }
}

const INTEGRATE_MAX = 20_000;

/**
 * Bring the tree up to the appended entries (at most INTEGRATE_MAX a round) and sign a
 * checkpoint of the new size — also of size 0, so a new log has one. One transaction; the
 * caller makes sure one process runs it at a time. Returns the new checkpoint, if any.
 */
export async function integrate(db: Db): Promise<Checkpoint | null> {
  // Nothing appended since the last checkpoint (most rounds): one read, no transaction or row lock.
  const [idle] = await db.select({ size: logHead.size }).from(logHead)
    .where(and(eq(logHead.id, 1), sql`${logHead.integrated} = ${logHead.size}`, sql`exists (select 1 from ${logCheckpoints} where ${logCheckpoints.size} = ${logHead.size})`));
  if (idle) return null;
  return db.transaction(async (tx) => {
    const [head] = await tx.select().from(logHead).where(eq(logHead.id, 1)).for("update");
    if (!head) throw new Error("log_head is missing (migration 0020)");
    const from = head.integrated;
    if (head.size === from && (await checkpointOfSize(tx, from))) return null;
    const entries = await tx.select({ idx: logEntries.idx, leaf: logEntries.leaf }).from(logEntries)
      .where(and(gte(logEntries.idx, from), lt(logEntries.idx, Math.min(head.size, from + INTEGRATE_MAX)))).orderBy(logEntries.idx);
    // The left siblings the new leaves may need: the complete subtrees on the old tree's right edge.
    const edge: Coord[] = [];
    for (let level = 0; 2 ** level <= from; level++) {
      const n = Math.floor(from / 2 ** level);
      if (n % 2 === 1) edge.push({ level, idx: n - 1 });
    }
    const known = await dbNodes(tx)(edge);
    const fresh: { level: number; idx: number; hash: string }[] = [];
    entries.forEach((e, i) => {
      if (e.idx !== from + i) throw new Error(`log entry ${from + i} is missing`);
      for (const n of nodesCompletedBy(e.idx, leafHash(e.leaf), (c) => {
        const h = known.get(coordKey(c));
        if (!h) throw new Error(`log node ${coordKey(c)} is missing`);
        return h;
      })) {
        known.set(coordKey(n.coord), n.hash);
        fresh.push({ ...n.coord, hash: n.hash });
      }
    });
    for (let i = 0; i < fresh.length; i += 5000) {
      const chunk = fresh.slice(i, i + 5000);
      const added = await tx.insert(logNodes).values(chunk).onConflictDoNothing().returning({ level: logNodes.level, idx: logNodes.idx });
      if (added.length < chunk.length) await sameAsStored(tx, chunk, added);
    }
    const size = from + entries.length;
    const source: NodeSource = async (coords) => {
      const missing = coords.filter((c) => !known.has(coordKey(c)));
      for (const [k, v] of await dbNodes(tx)(missing)) known.set(k, v);
      return known;
    };
    const root = await rootHash(size, source);
    const checkpoint = { size, rootHash: root, note: signNote(checkpointText(size, root)) };
    const signed = await tx.insert(logCheckpoints).values(checkpoint).onConflictDoNothing().returning({ size: logCheckpoints.size });
    if (signed.length === 0) {
      const stored = await checkpointOfSize(tx, size);
      if (stored && stored.rootHash !== root) {
        throw new LogConflict(`the stored checkpoint of size ${size} has root ${stored.rootHash}, the entries give ${root}`);
      }
    }
    await tx.update(logHead).set({ integrated: size }).where(eq(logHead.id, 1));
    return checkpoint;
  });
}

export type ProvenEntry = { index: number; leaf: string; leaf_hash: string; tree_size: number; inclusion_proof: string[] };

/**
 * A page of a record's log entries covered by `checkpoint`, each with its inclusion proof:
 * the `limit` latest before index `before` (absent: the latest), oldest first, with the cursor
 * for the ones before them; and how many of the record's entries came after the checkpoint.
 * Two index ranges on (record_id, idx), whatever the record's history length.
 */
export async function recordEntries(
  db: DbOrTx, recordId: string, checkpoint: Checkpoint, page: { before?: number; limit: number },
): Promise<{ proven: ProvenEntry[]; pending: number; olderBefore: number | null }> {
  const upTo = Math.min(checkpoint.size, page.before ?? checkpoint.size);
  const [rows, [after]] = await Promise.all([
    db.select({ idx: logEntries.idx, leaf: logEntries.leaf }).from(logEntries)
      .where(and(eq(logEntries.recordId, recordId), lt(logEntries.idx, upTo)))
      .orderBy(desc(logEntries.idx)).limit(page.limit + 1),
    db.select({ n: sql<number>`count(*)::int` }).from(logEntries)
      .where(and(eq(logEntries.recordId, recordId), gte(logEntries.idx, checkpoint.size))),
  ]);
  const shown = rows.slice(0, page.limit).reverse();
  const nodes = batchedDbNodes(db); // the page's proofs in one query
  const proven = await Promise.all(shown.map(async (r) => ({
    index: r.idx, leaf: r.leaf, leaf_hash: leafHash(r.leaf), tree_size: checkpoint.size,
    inclusion_proof: await inclusionProof(r.idx, checkpoint.size, nodes),
  })));
  return { proven, pending: Number(after?.n ?? 0), olderBefore: rows.length > page.limit ? shown[0]!.idx : null };
}

export type LatestEntry = {
  index: number; leaf: string; leaf_hash: string; tree_size: number; root_hash: string; inclusion_proof: string[]; checkpoint: string;
};

/**
 * For the signed status and the certificate: the record's latest entry and its proof against
 * the published checkpoint (published.ts: with witnesses, the latest with a quorum of cosignatures); "pending" while that entry is not covered by a checkpoint yet (for
 * LOG_CHECKPOINT_INTERVAL_MS at most); null when the record is not in the log (sandbox).
 */
export async function latestProvenEntry(db: DbOrTx, recordId: string): Promise<LatestEntry | "pending" | null> {
  const [last] = await db.select({ idx: logEntries.idx, leaf: logEntries.leaf }).from(logEntries)
    .where(eq(logEntries.recordId, recordId)).orderBy(desc(logEntries.idx)).limit(1);
  if (!last) return null;
  const checkpoint = await publishedCheckpoint(db);
  if (!checkpoint || last.idx >= checkpoint.size) return "pending";
  return {
    index: last.idx, leaf: last.leaf, leaf_hash: leafHash(last.leaf), tree_size: checkpoint.size,
    root_hash: Buffer.from(checkpoint.rootHash, "hex").toString("base64"),
    inclusion_proof: await inclusionProof(last.idx, checkpoint.size, dbNodes(db)),
    checkpoint: checkpoint.note,
  };
}

/**
 * Live records issued before the log began get their entries once, at start: "issued" at
 * their issue time and, if their status has moved on, one "status_changed" to it. Idempotent.
 */
export async function backfillLog(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    // The head's row first: two instances starting at once do not both log the same records.
    await tx.select().from(logHead).where(eq(logHead.id, 1)).for("update");
    const missing = rowsOf<{ id: string; environment: string; payload_sha256: string; status: string; issued_at: Date | string; status_changed_at: Date | string }>(
      await tx.execute(sql`
        select r.id, r.environment, r.payload_sha256, r.status, r.issued_at, r.status_changed_at from records r
        where r.environment = 'live' and r.issued_at is not null and r.payload_sha256 is not null
          and not exists (select 1 from log_entries e where e.record_id = r.id)
        order by r.issued_at, r.id limit 5000`));
    const leaves: (LogLeaf | null)[] = [];
    for (const r of missing) {
      const row = { id: r.id, environment: r.environment, payloadSha256: r.payload_sha256 };
      leaves.push(recordLeaf(row, "issued", "active", new Date(r.issued_at)));
      if (r.status !== "active") leaves.push(recordLeaf(row, "status_changed", r.status, new Date(r.status_changed_at)));
    }
    await appendLeaves(tx, leaves);
    return missing.length;
  });
}

/** Hashes of tree level `level`, nodes [first, first + count), for a tile. */
export async function levelHashes(db: DbOrTx, level: number, first: number, count: number): Promise<string[]> {
  const rows = await db.select({ idx: logNodes.idx, hash: logNodes.hash }).from(logNodes)
    .where(and(eq(logNodes.level, level), gte(logNodes.idx, first), lt(logNodes.idx, first + count))).orderBy(logNodes.idx);
  return rows.map((r) => r.hash);
}

export async function entryLeaves(db: DbOrTx, first: number, count: number): Promise<string[]> {
  const rows = await db.select({ leaf: logEntries.leaf }).from(logEntries)
    .where(and(gte(logEntries.idx, first), lt(logEntries.idx, first + count))).orderBy(logEntries.idx);
  return rows.map((r) => r.leaf);
}

/**
 * A tile as of the published checkpoint (C2SP tlog-tiles): full once the tree has all 256 of its
 * hashes or entries, partial (`width`) when it has at least that many; null otherwise.
 */
export async function readTile(db: DbOrTx, ref: TileRef): Promise<Buffer | null> {
  const size = (await publishedCheckpoint(db))?.size ?? 0;
  const level = ref.kind === "hashes" ? ref.level * TILE_HEIGHT : 0;
  const width = ref.width ?? TILE_WIDTH;
  if (Math.floor(size / 2 ** level) - ref.index * TILE_WIDTH < width) return null;
  const first = ref.index * TILE_WIDTH;
  return ref.kind === "entries"
    ? entryBundle(await entryLeaves(db, first, width))
    : Buffer.from((await levelHashes(db, level, first, width)).join(""), "hex");
}

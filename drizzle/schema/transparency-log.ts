import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * The transparency log (lib/tlog, docs/verify.md). `log_head` is one row: `size` entries are
 * appended (each change's transaction moves it on, holding the row until it commits, so
 * indexes are gap-free and in commit order); `integrated` of them are in the Merkle tree and
 * covered by the latest checkpoint.
 */
export const logHead = pgTable("log_head", {
  id: integer("id").primaryKey(),
  size: bigint("size", { mode: "number" }).notNull(),
  integrated: bigint("integrated", { mode: "number" }).notNull(),
  /** The verifier key (C2SP vkey) checkpoints are signed with; every instance must hold its key. */
  noteVkey: text("note_vkey"),
  /**
   * With witnesses (LOG_WITNESSES): the size of the newest checkpoint a quorum of them cosigned,
   * the one every public answer hands out (lib/tlog/published.ts). Moved on by the integrator
   * after each round of the witness client; null until a checkpoint reaches quorum.
   */
  publishedSize: bigint("published_size", { mode: "number" }),
});

/** One leaf per issuance, status change and signing-key publication: RFC 8785 JSON text. */
export const logEntries = pgTable("log_entries", {
  idx: bigint("idx", { mode: "number" }).primaryKey(),
  leaf: text("leaf").notNull(),
  recordId: text("record_id"),
  createdAt: ts("created_at").notNull().defaultNow(),
}, (t) => [index("log_entries_record_idx").on(t.recordId, t.idx)]);

/** Hashes (hex) of every complete subtree: level 0 = leaf hashes; node (level, idx) covers leaves [idx·2^level, (idx+1)·2^level). */
export const logNodes = pgTable("log_nodes", {
  level: integer("level").notNull(),
  idx: bigint("idx", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
}, (t) => [primaryKey({ columns: [t.level, t.idx] })]);

/** Signed checkpoints (C2SP signed notes), one per published tree size. */
export const logCheckpoints = pgTable("log_checkpoints", {
  size: bigint("size", { mode: "number" }).primaryKey(),
  rootHash: text("root_hash").notNull(),
  note: text("note").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * Witness cosignatures (C2SP tlog-cosignature, Ed25519 `cosignature/v1`) of a checkpoint, one
 * per witness of LOG_WITNESSES that cosigned it: `line` is the note signature line as the
 * witness returned it (`— <name> <base64>`), already verified against the witness's vkey.
 */
export const logCosignatures = pgTable("log_cosignatures", {
  checkpointSize: bigint("checkpoint_size", { mode: "number" }).notNull(),
  witnessName: text("witness_name").notNull(),
  line: text("line").notNull(),
  /** The cosignature's own timestamp (POSIX seconds). */
  signedAt: bigint("signed_at", { mode: "number" }).notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.checkpointSize, t.witnessName] })]);

/**
 * What the log knows of each witness: the size of the latest checkpoint the witness cosigned
 * for this log (the `old` of the next add-checkpoint), and its last refusal, for operators.
 */
export const logWitnessState = pgTable("log_witness_state", {
  witnessName: text("witness_name").primaryKey(),
  size: bigint("size", { mode: "number" }).notNull(),
  lastError: text("last_error"),
  lastErrorAt: ts("last_error_at"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { useOwnDatabase } from "../own-database";

// The data layer on a private PGlite folder, or a fresh PostgreSQL database of its own: the
// log's note key is fixed once per database.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-notekey-"));
process.env.DATA_DIR = dir;
const ownDb = await useOwnDatabase("notekey");

const { getDb, closeDb } = await import("@/lib/db/client");
const { claimNoteKey, NoteKeyConflict } = await import("@/lib/tlog/store");
const { noteKeyFromSeed } = await import("@/lib/tlog/note");

afterAll(async () => {
  await closeDb();
  await ownDb.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the transparency log's note key", () => {
  it("is fixed by the first process; a process with another key is refused, one under another name is not", async () => {
    const db = await getDb();
    const seed = randomBytes(32);
    await claimNoteKey(db, noteKeyFromSeed("a.example/log", seed).vkey);
    await claimNoteKey(db, noteKeyFromSeed("a.example/log", seed).vkey);
    await claimNoteKey(db, noteKeyFromSeed("127.0.0.1:4000/log", seed).vkey); // same key, another origin
    await expect(claimNoteKey(db, noteKeyFromSeed("a.example/log", randomBytes(32)).vkey)).rejects.toBeInstanceOf(NoteKeyConflict);
  });
});

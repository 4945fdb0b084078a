import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

// The data layer on a private PGlite folder, or a fresh PostgreSQL database of its own: the
// log's note key is fixed once per database.
const { db } = await dataLayerTest({ prefix: "prs-notekey-", ownDatabase: "notekey" });
const { claimNoteKey, NoteKeyConflict } = await import("@/lib/tlog/store");
const { noteKeyFromSeed } = await import("@/lib/tlog/note");

describe("the transparency log's note key", () => {
  it("is fixed by the first process; a process with another key is refused, one under another name is not", async () => {
    const seed = randomBytes(32);
    await claimNoteKey(db, noteKeyFromSeed("a.example/log", seed).vkey);
    await claimNoteKey(db, noteKeyFromSeed("a.example/log", seed).vkey);
    await claimNoteKey(db, noteKeyFromSeed("127.0.0.1:4000/log", seed).vkey); // same key, another origin
    await expect(claimNoteKey(db, noteKeyFromSeed("a.example/log", randomBytes(32)).vkey)).rejects.toBeInstanceOf(NoteKeyConflict);
  });
});

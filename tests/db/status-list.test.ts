import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { untilPast } from "../helpers";
import { dataLayerTest } from "./setup";

/*
 * Status lists are updated, not rebuilt (lib/public/vc/status-list.ts, migration 0028): a status
 * change leaves a change note (a database trigger) and the held list re-reads only the records
 * noted. After a suspension exactly that record's bit flips in the served list — decoded here
 * with zlib and base64url, not the app's code — and every other bit stays as it was, whoever
 * made the change (the app, or an UPDATE straight in the database, as another instance would).
 */
const { db, sandboxCustomer, create } = await dataLayerTest({ ownDatabase: "status_list" });
const { changeLifecycle } = await import("@/lib/records/change-lifecycle");
const { getStatusListCredential, statusIndexOf } = await import("@/lib/public/vc/status-list");
const { records, statusListChanges } = await import("@/drizzle/schema");

const bitsOf = async (purpose: "revocation" | "suspension", environment: "live" | "sandbox" = "sandbox") => {
  const body = await getStatusListCredential(db, purpose, 0, environment);
  const list = JSON.parse(body!) as { credentialSubject: { encodedList: string } };
  expect(list.credentialSubject.encodedList[0]).toBe("u"); // multibase base64url
  return gunzipSync(Buffer.from(list.credentialSubject.encodedList.slice(1), "base64url"));
};
const bit = (bytes: Buffer, i: number) => (bytes[i >> 3]! & (0x80 >> (i & 7))) !== 0;
/** The positions where two bitstrings differ. */
const differences = (a: Buffer, b: Buffer) => {
  expect(a.length).toBe(b.length);
  const out: number[] = [];
  for (let i = 0; i < a.length * 8; i++) if (bit(a, i) !== bit(b, i)) out.push(i);
  return out;
};

describe("status lists follow status changes", () => {
  it("after a suspension only that record's bit flips; reinstate and revoke likewise", async () => {
    const { auth } = await sandboxCustomer({ tag: "sl" });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await create(auth, { subject: `Status List ${i} Ltd`, claim_type: "company_status", claim: "x" });
      expect(r.status).toBe(201);
      ids.push(r.body.verification_id);
    }
    const index = new Map<string, number>();
    for (const id of ids) index.set(id, await statusIndexOf(db, id));
    // One already suspended before the list is first built.
    await changeLifecycle(db, auth, ids[0]!, { operation: "suspend", reason: "Before the list." });
    const before = await bitsOf("suspension");
    const beforeRevocation = await bitsOf("revocation");
    expect(bit(before, index.get(ids[0]!)!)).toBe(true);
    expect(bit(before, index.get(ids[2]!)!)).toBe(false);

    await changeLifecycle(db, auth, ids[2]!, { operation: "suspend", reason: "Checking it." });
    const after = await bitsOf("suspension");
    expect(differences(before, after)).toEqual([index.get(ids[2]!)]);
    expect(bit(after, index.get(ids[2]!)!)).toBe(true);
    expect(differences(beforeRevocation, await bitsOf("revocation"))).toEqual([]);

    await changeLifecycle(db, auth, ids[2]!, { operation: "reinstate", reason: "Checked." });
    expect(differences(before, await bitsOf("suspension"))).toEqual([]);

    await changeLifecycle(db, auth, ids[3]!, { operation: "revoke", reason: "Closed." });
    expect(differences(beforeRevocation, await bitsOf("revocation"))).toEqual([index.get(ids[3]!)]);
    // The live revocation list marks every sandbox record (their old credentials were signed by the live issuer).
    const live = await bitsOf("revocation", "live");
    for (const id of ids) expect(bit(live, index.get(id)!)).toBe(true);
  });

  it("a change made straight in the database (another instance) is noted by the trigger and picked up", async () => {
    const { auth } = await sandboxCustomer({ tag: "sl2" });
    const r = await create(auth, { subject: "Elsewhere Ltd", claim_type: "company_status", claim: "x" });
    const id = r.body.verification_id as string;
    const i = await statusIndexOf(db, id);
    const before = await bitsOf("suspension");
    expect(bit(before, i)).toBe(false);
    const [{ n: notesBefore }] = (await db.select({ n: sql<number>`count(*)::int` }).from(statusListChanges)) as [{ n: number }];
    await db.update(records).set({ status: "suspended", statusChangedAt: new Date() }).where(sql`${records.id} = ${id}`);
    const [{ n: notesAfter }] = (await db.select({ n: sql<number>`count(*)::int` }).from(statusListChanges)) as [{ n: number }];
    expect(notesAfter).toBe(notesBefore + 1);
    expect(differences(before, await bitsOf("suspension"))).toEqual([i]);
  });

  it("a record reaching expires_at is revoked in the list at that moment, before any sweep changes its row", async () => {
    const { auth } = await sandboxCustomer({ tag: "sl3" });
    const r = await create(auth, { subject: "Expiring Ltd", claim_type: "company_status", claim: "x" });
    const id = r.body.verification_id as string;
    const i = await statusIndexOf(db, id);
    const soon = new Date(Date.now() + 1500);
    await db.update(records).set({ expiresAt: soon }).where(sql`${records.id} = ${id}`);
    const before = await bitsOf("revocation");
    expect(bit(before, i)).toBe(false);
    // Wait for the moment itself (not a timing assertion: the answer is checked once it has passed).
    await untilPast(soon.toISOString()); // time under test: expires_at passing
    expect(differences(before, await bitsOf("revocation"))).toEqual([i]);
  });
});

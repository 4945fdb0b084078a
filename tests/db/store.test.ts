import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import * as jose from "jose";
import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

// In-process: the data layer itself, on a private PGlite folder (or DATABASE_URL's PostgreSQL).
const { db, sandboxCustomer } = await dataLayerTest();
const { getHandle, rowsOf } = await import("@/lib/db/client");
const { beginIdempotent, completeIdempotent, releaseIdempotent } = await import("@/lib/idempotency/key-store");
const { runIdempotent } = await import("@/lib/idempotency/run-idempotent");
const { completeKey } = await import("@/lib/idempotency/complete-key");
const { KeyTaken } = await import("@/lib/idempotency/key-taken");
const { ApiError } = await import("@/lib/http/errors");
const { idempotencyKeys, recordHistory, records, usageCounters } = await import("@/drizzle/schema");
const { createRecord } = await import("@/lib/records/create-record");
const { sql, eq } = await import("drizzle-orm");

const account = async () => (await sandboxCustomer({ tag: "u" })).auth;

describe("idempotency keys", () => {
  it("answers 409 while the first request runs, and lets a later one take over a dead lease", async () => {
    const auth = await account();
    const scope = { accountId: auth.accountId, environment: auth.environment, endpoint: "records.create", key: "k1" };
    const first = await beginIdempotent(db, scope, "h1");
    expect(first).toMatchObject({ kind: "new" });
    await expect(beginIdempotent(db, scope, "h1")).rejects.toMatchObject({ status: 409, code: "idempotency_key_in_use" });
    await expect(beginIdempotent(db, scope, "h2")).rejects.toMatchObject({ status: 422, code: "idempotency_key_reused" });
    // The first holder died two minutes ago: its lease has run out.
    const stale = new Date(Date.now() - 120_000);
    await db.update(idempotencyKeys).set({ lockedAt: stale }).where(eq(idempotencyKeys.key, "k1"));
    const taker = await beginIdempotent(db, scope, "h1");
    expect(taker).toMatchObject({ kind: "new" });
    // The presumed-dead first holder wakes up and fails: releasing must not drop the taker's claim.
    await releaseIdempotent(db, scope, stale);
    await releaseIdempotent(db, scope, (first as { claimedAt: Date }).claimedAt);
    await expect(beginIdempotent(db, scope, "h1")).rejects.toMatchObject({ status: 409, code: "idempotency_key_in_use" });
    expect(await completeIdempotent(db, scope, "h2", 201, '{"ok":true}')).toBe(false); // not this body's claim
    expect(await completeIdempotent(db, scope, "h1", 201, '{"ok":true}')).toBe(true);
    expect(await completeIdempotent(db, scope, "h1", 201, '{"ok":false}')).toBe(false); // already done
    expect(await beginIdempotent(db, scope, "h1")).toEqual({ kind: "replay", status: 201, bodyJson: '{"ok":true}' });
  });
});

describe("runIdempotent", () => {
  type Key = import("@/lib/idempotency/types").KeyClaim;
  const scopeOf = async (key: string) => {
    const auth = await account();
    return { accountId: auth.accountId, environment: auth.environment, endpoint: "records.create", key };
  };
  const keyRow = async (scope: { accountId: string; key: string }) =>
    db.select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, scope.accountId));
  /** The write a fast-path execute does: store the key as done, or report it taken. */
  const claimDone = async (key: Key, bodyJson: string) => {
    const ins = await db.insert(idempotencyKeys)
      .values({ ...key.scope, requestHash: key.requestHash, state: "done", responseStatus: 201, responseBody: bodyJson, lockedAt: new Date() })
      .onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (ins.length === 0) throw new KeyTaken();
  };

  it("takes the fast path when asked, the running claim otherwise, and replays without running again", async () => {
    const scope = await scopeOf("r1");
    const modes: string[] = [];
    const run = (fast: boolean) => runIdempotent(db, {
      scope, body: { a: 1 }, validate: () => "ok", fastPath: () => fast,
      execute: async (_input, key) => {
        modes.push(key.mode);
        if (key.mode === "claim") await claimDone(key, '{"n":1}');
        else {
          // The running claim is visible to duplicates while the work runs.
          expect((await keyRow(scope))[0]).toMatchObject({ state: "running" });
          await completeKey(db, key, { status: 201, bodyJson: '{"n":2}' });
        }
        return { status: 201 as const, bodyJson: key.mode === "claim" ? '{"n":1}' : '{"n":2}' };
      },
    });
    expect(await run(true)).toEqual({ status: 201, bodyJson: '{"n":1}', replayed: false });
    expect(await run(true)).toEqual({ status: 200, bodyJson: '{"n":1}', replayed: true }); // executed, found the key taken, replayed
    expect(await run(false)).toEqual({ status: 200, bodyJson: '{"n":1}', replayed: true }); // replayed before executing
    expect(modes).toEqual(["claim", "claim"]);
    const other = await scopeOf("r2");
    const r = await runIdempotent(db, {
      scope: other, body: { a: 1 }, validate: () => "ok",
      execute: async (_i, key) => (modes.push(key.mode), await completeKey(db, key, { status: 202, bodyJson: "{}" }), { status: 202 as const, bodyJson: "{}" }),
      replayBody: (stored) => `replayed:${stored}`,
    });
    expect(r).toEqual({ status: 202, bodyJson: "{}", replayed: false });
    expect(modes).toEqual(["claim", "claim", "complete"]);
    expect(await runIdempotent(db, { scope: other, body: { a: 1 }, validate: () => "ok", execute: async () => { throw new Error("ran"); },
      replayBody: (stored) => `replayed:${stored}` })).toEqual({ status: 200, bodyJson: "replayed:{}", replayed: true });
  });

  it("looks the key up when validation fails: replays a finished request, otherwise throws the validation error", async () => {
    const scope = await scopeOf("r3");
    const invalid = () => { throw new ApiError("invalid_value", "no"); };
    const never = async (): Promise<{ status: 201; bodyJson: string }> => { throw new Error("must not run"); };
    await expect(runIdempotent(db, { scope, body: { b: 1 }, validate: invalid, execute: never })).rejects.toMatchObject({ code: "invalid_value" });
    await runIdempotent(db, { scope, body: { b: 1 }, validate: () => 1, fastPath: () => true,
      execute: async (_i, key) => (await claimDone(key, '{"ok":1}'), { status: 201 as const, bodyJson: '{"ok":1}' }) });
    expect(await runIdempotent(db, { scope, body: { b: 1 }, validate: invalid, execute: never })).toEqual({ status: 200, bodyJson: '{"ok":1}', replayed: true });
    await expect(runIdempotent(db, { scope, body: { b: 2 }, validate: invalid, execute: never })).rejects.toMatchObject({ status: 422, code: "idempotency_key_reused" });
  });

  it("releases the key when the work fails, but leaves a key that was taken over alone (409)", async () => {
    const scope = await scopeOf("r4");
    await expect(runIdempotent(db, { scope, body: {}, validate: () => 1, execute: async () => { throw new ApiError("invalid_value", "no"); } }))
      .rejects.toMatchObject({ code: "invalid_value" });
    expect(await keyRow(scope)).toEqual([]); // a failed request does not burn the key
    await expect(runIdempotent(db, { scope, body: {}, validate: () => 1, execute: async () => {
      // Another request takes the key over meanwhile (as after a lapsed lease).
      await db.update(idempotencyKeys).set({ lockedAt: new Date(Date.now() + 5_000) }).where(eq(idempotencyKeys.accountId, scope.accountId));
      throw new KeyTaken();
    } })).rejects.toMatchObject({ status: 409, code: "idempotency_key_in_use" });
    expect(await keyRow(scope)).toMatchObject([{ state: "running" }]);
  });
});

describe("the fast path of an offline create", () => {
  it("writes a sandbox company_status record, its key and its event in one statement", async () => {
    const auth = await account();
    // The account's first create reads who is speaking (its profile, then kept like a status answer).
    await createRecord(db, auth, { subject: "S", claim_type: "company_status", claim: "C" }, "k-warm");
    const { vi } = await import("vitest");
    const handle = await getHandle();
    // Pass-through spies: every statement still runs on the real database, and is counted —
    // what runs, not what is built (the key's statement is built with drizzle and embedded in
    // the one raw statement): every drizzle statement is prepared by the session before it runs.
    const session = (db as unknown as { session: { prepareQuery: (...a: unknown[]) => unknown } }).session;
    const spies = [vi.spyOn(handle, "rawQuery"), vi.spyOn(session, "prepareQuery"), vi.spyOn(db, "transaction")];
    try {
      const r = await createRecord(db, auth, { subject: "S", claim_type: "company_status", claim: "C" }, "k-fast");
      expect(r.status).toBe(201);
      expect(spies.map((s) => s.mock.calls.length)).toEqual([1, 0, 0]);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    const keys = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, auth.accountId));
    expect(keys.find((k) => k.key === "k-fast")).toMatchObject({ key: "k-fast", state: "done", responseStatus: 201 });
  });
});

describe("lifecycle history", () => {
  it("is append-only in the database itself", async () => {
    const auth = await account();
    const r = await createRecord(db, auth, { subject: "S", claim_type: "company_status", claim: "C" }, "k-hist");
    const id = JSON.parse(r.bodyJson).verification_id as string;
    await expect(db.update(recordHistory).set({ reason: "rewritten" }).where(eq(recordHistory.recordId, id))).rejects.toThrow();
    await expect(db.delete(recordHistory).where(eq(recordHistory.recordId, id))).rejects.toThrow();
    const rows = await db.select().from(recordHistory).where(eq(recordHistory.recordId, id));
    expect(rows.map((h) => h.reason)).toEqual(["Issued."]);
  });

  it("refuses live work without a plan before writing anything", async () => {
    const auth = await account();
    const before = await db.execute(sql`select count(*)::int as n from records`);
    await expect(
      createRecord(db, { ...auth, environment: "live", plan: "none" }, { subject: "S", claim_type: "company_status", claim: "C" }, "k-fail"),
    ).rejects.toMatchObject({ code: "plan_inactive" });
    const after = await db.execute(sql`select count(*)::int as n from records`);
    expect(rowsOf<{ n: number }>(after)[0]!.n).toBe(rowsOf<{ n: number }>(before)[0]!.n);
    const keys = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "k-fail"));
    expect(keys).toEqual([]);
  });

  it("rolls the metering back when the record write finds its key already taken", async () => {
    const auth = await account();
    const live = { ...auth, environment: "live" as const, plan: "growth" as const };
    const body = { subject: "S", claim_type: "company_status", claim: "C" };
    // Another request finished under this key between our check and our write.
    const requestHash = createHash("sha256").update(canonicalize(body)!).digest("hex");
    await db.insert(idempotencyKeys).values({
      accountId: auth.accountId, environment: "live", endpoint: "records.create", key: "k-taken", requestHash,
      state: "done", responseStatus: 201, responseBody: '{"earlier":true}', lockedAt: new Date(),
    });
    const r = await createRecord(db, live, body, "k-taken");
    expect(r).toEqual({ status: 200, bodyJson: '{"earlier":true}', replayed: true });
    // The metering step ran inside the transaction and was undone with it; no record was written.
    const usage = await db.select().from(usageCounters).where(eq(usageCounters.accountId, auth.accountId));
    expect(usage.reduce((n, u) => n + u.count, 0)).toBe(0);
    const recs = await db.select().from(records).where(eq(records.accountId, auth.accountId));
    expect(recs).toEqual([]);
  });
});


describe("signing keys from SIGNING_KEYS", () => {
  it("signs with the last key, publishes all, and refuses to rotate", async () => {
    const k1 = await jose.exportJWK((await jose.generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })).privateKey);
    const k2 = await jose.exportJWK((await jose.generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })).privateKey);
    process.env.SIGNING_KEYS = JSON.stringify([{ ...k1, kid: "old" }, { ...k2, kid: "new" }]);
    const { vi } = await import("vitest");
    vi.resetModules();
    const env = await import("@/lib/env");
    (globalThis as any).__prsKeyring = undefined;
    void env;
    const keys = await import("@/lib/signing/keys");
    const canonical = await import("@/lib/signing/canonical");
    try {
      expect(keys.publicJwks().keys.map((k) => k.kid)).toEqual(["old", "new"]);
      const value = { b: 1, a: "é", c: [3, { z: null, y: 1e21 }] };
      const s = canonical.signJson(value);
      expect(s.kid).toBe("new");
      const pub = await jose.importJWK({ kty: "OKP", crv: "Ed25519", x: k2.x }, "EdDSA");
      const ok = await crypto.subtle.verify("Ed25519", pub as CryptoKey, Buffer.from(s.signature, "base64url"), new TextEncoder().encode(canonicalize(value)!));
      expect(ok).toBe(true);
      expect(() => keys.rotateSigningKey()).toThrow(/SIGNING_KEYS/);
    } finally {
      delete process.env.SIGNING_KEYS;
      (globalThis as any).__prsKeyring = undefined;
    }
  });
});

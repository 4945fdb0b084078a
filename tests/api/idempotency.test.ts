import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, companyStatus, newAccount, untilPast, withShortExpiry } from "../helpers";

const post = (key: string, body: unknown, idem: string | null) => call("POST", "/api/v1/records", { key, body, idem });

describe("Idempotency-Key on POST /api/v1/records", () => {
  it("is required", async () => {
    const { sandboxKey } = await newAccount();
    const r = await post(sandboxKey, companyStatus(), null);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_required" });
  });

  it("replays the original answer with 200 and Idempotent-Replayed, creating nothing new", async () => {
    const { sandboxKey } = await newAccount();
    const key = randomUUID();
    const first = await post(sandboxKey, companyStatus(), key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same JSON, other key order and spacing: the canonical body is what counts.
    const again = await call("POST", "/api/v1/records", {
      key: sandboxKey, idem: key, body: JSON.stringify(Object.fromEntries(Object.entries(companyStatus()).reverse()), null, 2),
    });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const list = await call("GET", "/api/v1/records", { key: sandboxKey });
    expect(list.body.data).toHaveLength(1);
  });

  it("refuses the same key with a different body (422) and keeps keys per account", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const key = randomUUID();
    expect((await post(a.sandboxKey, companyStatus(), key)).status).toBe(201);
    const reused = await post(a.sandboxKey, companyStatus({ subject: "Other Ltd" }), key);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_reused" });
    // Another account may use the same key string independently.
    expect((await post(b.sandboxKey, companyStatus({ subject: "Other Ltd" }), key)).status).toBe(201);
  });

  it("does not burn the key on a request that failed validation", async () => {
    const { sandboxKey } = await newAccount();
    const key = randomUUID();
    const bad = await post(sandboxKey, companyStatus({ claim: "" }), key);
    expect(bad.status).toBe(422);
    const good = await post(sandboxKey, companyStatus(), key);
    expect(good.status).toBe(201);
  });

  // PostgreSQL only: on PGlite the server's one connection writes the 12 creates one after
  // another, so each later one is the sequential replay the tests above already check.
  it.skipIf(!process.env.DATABASE_URL)("creates exactly one record when 12 identical requests race", async () => {
    const { sandboxKey } = await newAccount();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 12 }, () => post(sandboxKey, companyStatus(), key)));
    const statuses = results.map((r) => r.status);
    for (const s of statuses) expect([200, 201, 409]).toContain(s);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    const ids = new Set(results.filter((r) => r.status < 300).map((r) => r.body.verification_id));
    expect(ids.size).toBe(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("idempotency_key_in_use");
    const list = await call("GET", "/api/v1/records", { key: sandboxKey });
    expect(list.body.data.map((r: any) => r.verification_id)).toEqual([...ids]);
  });

  it("replays a successful create even after its body would no longer validate (clock-dependent fields)", async () => {
    const { sandboxKey } = await newAccount();
    let key = "";
    let body: Record<string, unknown> = {};
    const { res: first, expiresAt } = await withShortExpiry((at) => {
      key = randomUUID();
      body = companyStatus({ expires_at: at });
      return post(sandboxKey, body, key);
    });
    expect(first.status, first.text).toBe(201);
    await untilPast(expiresAt);
    // The same body no longer validates as a new request…
    const fresh = await post(sandboxKey, body, randomUUID());
    expect(fresh.status).toBe(422);
    expect(fresh.body.error).toMatchObject({ code: "invalid_value", param: "expires_at" });
    // …but its key replays the original answer.
    const again = await post(sandboxKey, body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text); // byte-identical replay
  });

  it("rejects malformed keys", async () => {
    const { sandboxKey } = await newAccount();
    for (const k of ["has space", "x".repeat(256), "tab\tkey"]) {
      const r = await post(sandboxKey, companyStatus(), k);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_idempotency_key");
    }
  });
});

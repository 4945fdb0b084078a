import { describe, expect, it } from "vitest";
import { admin, call, companyStatus, issue, newAccount, newLiveAccount } from "../helpers";

/** Every authenticated endpoint, with a record id to aim at. */
const ENDPOINTS = (id: string) => [
  { method: "POST", path: "/api/v1/records", body: companyStatus() },
  { method: "GET", path: "/api/v1/records" },
  { method: "GET", path: `/api/v1/records/${id}` },
  { method: "POST", path: `/api/v1/records/${id}/lifecycle`, body: { operation: "suspend", reason: "test" } },
  { method: "GET", path: "/api/v1/usage" },
  { method: "POST", path: "/api/v1/mandate-keys", body: { key_id: "battery-key", public_key: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" } },
  { method: "GET", path: "/api/v1/mandate-keys" },
  { method: "DELETE", path: "/api/v1/mandate-keys/battery-key" },
];

describe("authentication battery", () => {
  it("answers 401 with a stable code for a missing, malformed, unknown or revoked key — on every endpoint", async () => {
    const owner = await newAccount();
    const id = (await issue(owner.sandboxKey)).verification_id;
    const extra = await admin("key", "create", "--account", owner.accountId, "--env", "sandbox");
    await admin("key", "revoke", "--key", extra.key_id);
    const cases: [string | undefined, string][] = [
      [undefined, "missing_api_key"],
      ["not-a-key", "invalid_api_key"],
      ["prs_sandbox_" + "A".repeat(32), "invalid_api_key"],
      ["prs_live_" + "z".repeat(32), "invalid_api_key"],
      [extra.key, "api_key_revoked"],
    ];
    for (const ep of ENDPOINTS(id)) {
      for (const [key, code] of cases) {
        const r = await call(ep.method, ep.path, { key, body: ep.body });
        expect(r.status, `${ep.method} ${ep.path} with ${key}`).toBe(401);
        expect(r.body.error).toMatchObject({ type: "authentication_error", code });
        expect(r.headers.get("access-control-allow-origin")).toBeNull();
      }
      const basic = await call(ep.method, ep.path, { headers: { Authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, body: ep.body });
      expect(basic.status).toBe(401);
    }
    // The owner's own key still works, and the revoked key wrote nothing.
    const list = await call("GET", "/api/v1/records", { key: owner.sandboxKey });
    expect(list.body.data.map((r: any) => r.verification_id)).toEqual([id]);
  });
});

describe("key and account changes take effect at once (no stale cached authentication)", () => {
  it("a key that was just used stops working the moment it is revoked", async () => {
    const a = await newAccount();
    const k = await admin("key", "create", "--account", a.accountId, "--env", "sandbox");
    expect((await call("GET", "/api/v1/usage", { key: k.key })).status).toBe(200);
    await admin("key", "revoke", "--key", k.key_id);
    const r = await call("GET", "/api/v1/usage", { key: k.key });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("api_key_revoked");
  });

  it("a plan change applies to the very next request of a key in use", async () => {
    const acct = await newLiveAccount("growth");
    expect((await call("GET", "/api/v1/usage", { key: acct.liveKey })).body.plan).toBe("growth");
    await admin("plan", "set", "--account", acct.accountId, "--plan", "none");
    const r = await call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus() });
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("plan_inactive");
  });
});

describe("tenancy", () => {
  it("another account's record is 404 on every endpoint and stays untouched", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const rec = await issue(a.sandboxKey);
    const id = rec.verification_id;
    const get = await call("GET", `/api/v1/records/${id}`, { key: b.sandboxKey });
    expect(get.status).toBe(404);
    expect(get.body.error).toMatchObject({ type: "not_found", code: "record_not_found" });
    const life = await call("POST", `/api/v1/records/${id}/lifecycle`, { key: b.sandboxKey, body: { operation: "revoke", reason: "not mine" } });
    expect(life.status).toBe(404);
    const list = await call("GET", "/api/v1/records", { key: b.sandboxKey });
    expect(list.body.data).toEqual([]);
    const cursor = await call("GET", `/api/v1/records?starting_after=${id}`, { key: b.sandboxKey });
    expect(cursor.status).toBe(422); // another account's id is no cursor: nothing about it leaks
    expect(cursor.body.error).toMatchObject({ code: "invalid_value", param: "starting_after" });
    const still = await call("GET", `/api/v1/records/${id}`, { key: a.sandboxKey });
    expect(still.body).toEqual(rec);
  });

  it("sandbox and live are separate: a live record is 404 to the same account's sandbox key", async () => {
    const acct = await newLiveAccount();
    const live = await issue(acct.liveKey);
    expect(live.environment).toBe("live");
    expect((await call("GET", `/api/v1/records/${live.verification_id}`, { key: acct.sandboxKey })).status).toBe(404);
    expect((await call("GET", `/api/v1/records/${live.verification_id}`, { key: acct.liveKey })).status).toBe(200);
    const sandboxList = await call("GET", "/api/v1/records", { key: acct.sandboxKey });
    expect(sandboxList.body.data).toEqual([]);
  });

  it("the internal admin endpoint refuses a caller without the server's token", async () => {
    const r = await call("POST", "/api/internal/admin", { body: { argv: ["account", "create", "--email", "x@example.test"] } });
    expect(r.status).toBe(404);
    const wrong = await call("POST", "/api/internal/admin", { headers: { Authorization: "Bearer nope" }, body: { argv: [] } });
    expect(wrong.status).toBe(404);
  });
});

describe("public endpoints", () => {
  it("send CORS to everyone and answer preflight", async () => {
    const { sandboxKey } = await newAccount();
    const id = (await issue(sandboxKey)).verification_id;
    for (const p of [`/api/v1/records/${id}/status`, `/api/v1/records/${id}/signature`, "/.well-known/jwks.json"]) {
      const pre = await call("OPTIONS", p, { headers: { Origin: "https://shop.example", "Access-Control-Request-Method": "GET" } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-origin")).toBe("*");
      const g = await call("GET", p, { headers: { Origin: "https://shop.example" } });
      expect(g.status).toBe(200);
      expect(g.headers.get("access-control-allow-origin")).toBe("*");
    }
    const missing = await call("GET", "/api/v1/records/PRS-00000000000000000000/status");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { accountWithResources, bodyFor, documentedOperations, pathFor, snapshot } from "../api-operations";
import { admin, baseUrl, call, companyStatus, issue, newAccount, newLiveAccount, uniqueEmail } from "../helpers";
import { withServerDb } from "../server-db";

/** The keyed operations of the published document (the metrics endpoint takes METRICS_TOKEN: tests/api/metrics.test.ts). */
async function keyedOperations() {
  const ops = await documentedOperations();
  return { keyed: ops.filter((o) => o.auth === "key"), open: ops.filter((o) => o.auth === "public") };
}

describe("authentication battery over every keyed operation of the OpenAPI document", () => {
  it("answers 401 with a stable code for a missing, malformed, unknown or revoked key, and changes nothing", async () => {
    const { keyed, open } = await keyedOperations();
    expect(keyed.length).toBeGreaterThanOrEqual(17); // what the API has today; more is fine
    const owner = await accountWithResources();
    const extra = await admin("key", "create", "--account", owner.accountId, "--env", "sandbox");
    await admin("key", "revoke", "--key", extra.key_id);
    const before = await snapshot(owner.sandboxKey, owner.fixtures);
    const cases: [string | undefined, string][] = [
      [undefined, "missing_api_key"],
      ["not-a-key", "invalid_api_key"],
      ["prs_sandbox_" + "A".repeat(32), "invalid_api_key"],
      ["prs_live_" + "z".repeat(32), "invalid_api_key"],
      [extra.key, "api_key_revoked"],
    ];
    for (const op of keyed) {
      const p = pathFor(op, owner.fixtures);
      for (const [key, code] of cases) {
        const body = bodyFor(op);
        const r = await call(op.method, p, { key, body });
        expect(r.status, `${op.method} ${p} with ${key}: ${r.text}`).toBe(401);
        expect(r.body.error, `${op.method} ${p}`).toMatchObject({ type: "authentication_error", code });
        expect(r.headers.get("access-control-allow-origin")).toBeNull();
      }
      const basic = await call(op.method, p, { headers: { Authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, body: bodyFor(op) });
      expect(basic.status, `${op.method} ${p} with Basic`).toBe(401);
    }
    // The keyless operations really are keyless: none of them asks for a key.
    for (const op of open.filter((o) => o.method === "GET")) {
      const r = await call("GET", pathFor(op, owner.fixtures));
      expect(r.status, `GET ${op.template}`).not.toBe(401);
    }
    // The owner's key still works, and nothing was created, changed or deleted.
    expect(await snapshot(owner.sandboxKey, owner.fixtures)).toEqual(before);
  });

  it("another account's (or environment's) resource is 404 with the documented code on every keyed operation, and stays untouched", async () => {
    const { keyed } = await keyedOperations();
    const owner = await accountWithResources();
    const stranger = await newAccount();
    const before = await snapshot(owner.sandboxKey, owner.fixtures);
    const ownIds = [owner.accountId, ...Object.values(owner.fixtures)];
    let withParams = 0;
    for (const op of keyed) {
      const p = pathFor(op, owner.fixtures);
      // The owner's own live key is another environment: as foreign as another account.
      for (const [who, key] of [["another account", stranger.sandboxKey], ["the other environment", owner.liveKey]] as const) {
        if (p === op.template && op.method !== "GET") continue; // a create acts on the caller's own account
        // The account itself is one across environments: the owner's live key reads its own account, its documents and
        // its organisation verification (documents and the organisation belong to the account, not to an environment), and
        // its impersonation watches (they watch live records for the account, whichever key manages them).
        const accountWide = op.template === "/api/v1/account" || op.template.startsWith("/api/v1/files") || op.template === "/api/v1/account/organisation-verification"
          || op.template.startsWith("/api/v1/watches");
        if (accountWide && who === "the other environment") continue;
        const r = await call(op.method, p, { key, body: bodyFor(op) });
        const label = `${op.method} ${p} by ${who}: ${r.text.slice(0, 300)}`;
        if (p !== op.template) {
          expect((op.codes["404"] ?? []).length, `${op.operationId} documents its 404 code`).toBeGreaterThan(0);
          expect(r.status, label).toBe(404);
          expect(r.body.error.type, label).toBe("not_found");
          expect(op.codes["404"] ?? [], label).toContain(r.body.error.code);
        } else {
          // A collection read answers only the caller's own things: nothing of the owner's.
          expect(r.status, label).toBe(200);
          for (const id of ownIds) expect(r.text, label).not.toContain(id);
        }
      }
      if (p !== op.template) withParams++;
    }
    expect(withParams).toBeGreaterThanOrEqual(7);
    expect(await snapshot(owner.sandboxKey, owner.fixtures)).toEqual(before);
    expect((await call("GET", `/api/v1/records/${owner.fixtures.recordId}/status`)).body.status).toBe("active");
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
  // That another account's record (and every other resource) is 404 with the documented code on every keyed
  // operation taking its id, and stays untouched, is the battery above, driven by the OpenAPI document.
  it("another account's record is not in its list and is no list cursor", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const rec = await issue(a.sandboxKey);
    const id = rec.verification_id;
    const list = await call("GET", "/api/v1/records", { key: b.sandboxKey });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const cursor = await call("GET", `/api/v1/records?starting_after=${id}`, { key: b.sandboxKey });
    expect(cursor.status).toBe(422); // another account's id is no cursor: nothing about it leaks
    expect(cursor.body.error).toMatchObject({ code: "invalid_value", param: "starting_after" });
    // The owner's own id is a cursor (so the 422 above is about whose it is).
    const own = await call("GET", `/api/v1/records?starting_after=${id}`, { key: a.sandboxKey });
    expect(own.status, own.text).toBe(200);
    expect((await call("GET", `/api/v1/records/${id}`, { key: a.sandboxKey })).body).toEqual(rec);
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

  it("the internal admin endpoint is not served on the public port, token or not, and runs nothing there", async () => {
    const { token } = JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "server.json"), "utf8")) as { token: string };
    const sameLength = token.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    const emails: string[] = [];
    for (const auth of [undefined, "Bearer nope", `Bearer ${sameLength}`, `Basic ${Buffer.from(`admin:${token}`).toString("base64")}`, token, `Bearer ${token}`]) {
      const email = uniqueEmail("admin-refused");
      emails.push(email);
        // A caller that also forges the internal listener's mark gets no further.
      const r = await call("POST", "/api/internal/admin", { headers: { ...(auth ? { Authorization: auth } : {}), "x-prs-internal-listener": "forged" }, body: { argv: ["account", "create", "--email", email] } });
      expect(r.status, `${auth}: ${r.text}`).toBe(404);
      expect(r.body.error.code).toBe("not_found");
      expect(r.text).not.toContain("sandbox_key");
    }
    // Nothing was created: no account holds any of those emails.
    const created = () => withServerDb(async (sql) => Array.from(await sql`select email from accounts where email in ${sql(emails)}`, (r) => r.email as string));
    expect(await created()).toEqual([]);
    // On the internal listener, a wrong token is refused too…
    const { adminPort } = JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "server.json"), "utf8")) as { adminPort: number };
    expect(adminPort).not.toBe(Number(new URL(baseUrl()).port));
    const wrongToken = await fetch(`http://127.0.0.1:${adminPort}/api/internal/admin`, {
      method: "POST", headers: { Authorization: `Bearer ${sameLength}`, "Content-Type": "application/json" }, body: JSON.stringify({ argv: ["account", "create", "--email", emails[1]] }),
    });
    expect(wrongToken.status).toBe(404);
    expect(await created()).toEqual([]);
    // …and the same command with the token does create one (so the query above would see it).
    await admin("account", "create", "--email", emails[0]!);
    expect(await created()).toEqual([emails[0]]);
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

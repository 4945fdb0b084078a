import { generateKeyPairSync, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { admin, call, companyStatus, issue, newAccount, newLiveAccount } from "../helpers";
import { PDF, upload } from "../uploads";

type Operation = {
  method: string;
  /** As documented, e.g. /api/v1/records/{id}. */
  template: string;
  operationId: string;
  hasBody: boolean;
  /** The error codes the document lists for its 404, if any. */
  notFoundCodes: string[];
};

/**
 * Every operation the published OpenAPI document lists with `bearerAuth` — so a route added
 * to the API (lib/openapi/build-openapi.test.ts holds the document to the route files) is in
 * this battery without anyone editing it.
 */
async function keyedOperations(): Promise<{ keyed: Operation[]; open: Operation[] }> {
  const doc = await call("GET", "/api/v1/openapi.json");
  expect(doc.status).toBe(200);
  const keyed: Operation[] = [];
  const open: Operation[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(doc.body.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const codes = [...String(op.responses?.["404"]?.description ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
      const o = { method: method.toUpperCase(), template, operationId: op.operationId, hasBody: !!op.requestBody, notFoundCodes: codes };
      // The operator's metrics endpoint takes METRICS_TOKEN, not an API key (tests/api/metrics.test.ts).
      if (op.security?.some((s: Record<string, unknown>) => "metricsToken" in s)) continue;
      (op.security?.some((s: Record<string, unknown>) => "bearerAuth" in s) ? keyed : open).push(o);
    }
  }
  return { keyed, open };
}

/** A resource of account A for each kind of path parameter, by the collection it names. */
type Fixtures = { recordId: string; webhookId: string; mandateKeyId: string; fileId: string };

function pathFor(op: Operation, f: Fixtures): string {
  return op.template.replace(/\/([a-z-]+)\/\{(\w+)\}/g, (_, collection: string, name: string) => {
    const id = ({ records: f.recordId, webhooks: f.webhookId, "mandate-keys": f.mandateKeyId, keys: f.mandateKeyId, files: f.fileId, "status-lists": "revocation" } as Record<string, string>)[collection];
    if (!id) throw new Error(`security battery: no fixture for {${name}} in ${op.template}; add one for '${collection}'`);
    return `/${collection}/${id}`;
  }).replace("/{list}", "/0"); // a status list: /status-lists/{purpose}/{list}
}

/** A well-formed body per operation, so a refusal can only come from the key or the tenancy. */
const BODIES: Record<string, unknown> = {
  createRecord: companyStatus(),
  createRecordBatch: { records: [companyStatus()] },
  changeRecordLifecycle: { operation: "suspend", reason: "security battery" },
  createWebhook: { url: "http://127.0.0.1:9/battery" },
  createMandateKey: { key_id: "battery-key-x", public_key: edPublicKey() },
  createDomainChallenge: { domain: "battery.example.com" },
  createWalletChallenge: { address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", network: "ethereum" },
  updateAccount: { name: "Security Battery Ltd" },
  changeRecordPrincipal: { principal_record_id: null },
  refreshRecordEvidence: { evidence: { challenge_id: "wch_Xw2pL8d0Qn5rTs1yGv3k", signature: "0x00" } },
  // Multipart in real use (tests/api/files.test.ts); the key is refused before the body is read.
  uploadFile: {},
  applyForOrganisationVerification: { applicant: { name: "Battery Person", role: "Director", email: "battery@example.com" }, documents: [] },
};

function edPublicKey() {
  return (generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }) as { x: string }).x;
}

function bodyFor(op: Operation): unknown {
  if (!op.hasBody) return undefined;
  if (!(op.operationId in BODIES)) throw new Error(`security battery: add a well-formed body for ${op.operationId} (${op.method} ${op.template})`);
  return BODIES[op.operationId];
}

/** Account A with one of each resource (made with its sandbox key), and everything A can list, for comparing afterwards. */
async function accountWithResources() {
  const a = await newLiveAccount("growth");
  const rec = await issue(a.sandboxKey);
  // Subscribed to an event nothing here raises: its delivery list stays empty unless someone queues to it.
  const hook = await call("POST", "/api/v1/webhooks", { key: a.sandboxKey, body: { url: "http://127.0.0.1:9/owner", events: ["principal_link.changed"] } });
  expect(hook.status, hook.text).toBe(201);
  const mk = await call("POST", "/api/v1/mandate-keys", { key: a.sandboxKey, body: { key_id: `battery-${randomUUID().slice(0, 8)}`, public_key: edPublicKey() } });
  expect(mk.status, mk.text).toBe(201);
  const file = await upload(a.sandboxKey, PDF, "authority.pdf");
  expect(file.status, file.text).toBe(201);
  const fixtures: Fixtures = { recordId: rec.verification_id, webhookId: hook.body.id, mandateKeyId: mk.body.key_id, fileId: file.body.id };
  return { ...a, fixtures };
}

/** What account A's sandbox key sees of its own resources. */
async function snapshot(key: string, f: Fixtures) {
  const get = async (p: string) => {
    const r = await call("GET", p, { key });
    expect(r.status, `${p}: ${r.text}`).toBe(200);
    return r.body;
  };
  return {
    record: await get(`/api/v1/records/${f.recordId}`),
    records: await get("/api/v1/records"),
    webhooks: await get("/api/v1/webhooks"),
    deliveries: await get(`/api/v1/webhooks/${f.webhookId}/deliveries`),
    mandateKeys: await get("/api/v1/mandate-keys"),
    file: await get(`/api/v1/files/${f.fileId}`),
    organisation: await get("/api/v1/account/organisation-verification"),
    account: await get("/api/v1/account"),
  };
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
      const body = bodyFor(op);
      for (const [key, code] of cases) {
        const r = await call(op.method, p, { key, body });
        expect(r.status, `${op.method} ${p} with ${key}: ${r.text}`).toBe(401);
        expect(r.body.error, `${op.method} ${p}`).toMatchObject({ type: "authentication_error", code });
        expect(r.headers.get("access-control-allow-origin")).toBeNull();
      }
      const basic = await call(op.method, p, { headers: { Authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, body });
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
        // its organisation verification (documents and the organisation belong to the account, not to an environment).
        const accountWide = op.template === "/api/v1/account" || op.template.startsWith("/api/v1/files") || op.template === "/api/v1/account/organisation-verification";
        if (accountWide && who === "the other environment") continue;
        const r = await call(op.method, p, { key, body: bodyFor(op) });
        const label = `${op.method} ${p} by ${who}: ${r.text.slice(0, 300)}`;
        if (p !== op.template) {
          expect(op.notFoundCodes.length, `${op.operationId} documents its 404 code`).toBeGreaterThan(0);
          expect(r.status, label).toBe(404);
          expect(r.body.error.type, label).toBe("not_found");
          expect(op.notFoundCodes, label).toContain(r.body.error.code);
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

import { generateKeyPairSync, randomUUID } from "node:crypto";
import { expect } from "vitest";
import { call, companyStatus, issue, newLiveAccount } from "./helpers";
import { PDF, upload } from "./uploads";

/**
 * The operations of the published OpenAPI document (GET /api/v1/openapi.json), for the tests
 * that must reach every one of them (tests/api/security.test.ts, tests/api/fuzz.test.ts): an
 * operation added to the API (lib/openapi/build-openapi.test.ts holds the document to the route
 * files) is in those tests without anyone editing them — or they fail asking for a fixture.
 */
export type Operation = {
  method: string;
  /** As documented, e.g. /api/v1/records/{id}. */
  template: string;
  operationId: string;
  /** Who may call it: an API key, the operator's METRICS_TOKEN, or anyone. */
  auth: "key" | "metrics" | "public";
  /** The scope a restricted key needs for it (the `bearerAuth` requirement's), if it takes a key at all. */
  scope: string | null;
  /** The media type of its request body, if it takes one. */
  body: "json" | "multipart" | null;
  /** Its documented query parameters. */
  query: string[];
  /** The error codes the document lists, by HTTP status ("404" → ["record_not_found"]). */
  codes: Record<string, string[]>;
};

export async function documentedOperations(): Promise<Operation[]> {
  const doc = await call("GET", "/api/v1/openapi.json");
  expect(doc.status).toBe(200);
  const resolve = (p: { $ref?: string; in?: string; name?: string }) =>
    p.$ref ? doc.body.components.parameters[p.$ref.split("/").at(-1)!] as { in: string; name: string } : (p as { in: string; name: string });
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(doc.body.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const security = (op.security ?? []) as Record<string, unknown>[];
      const codes: Record<string, string[]> = {};
      for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
        codes[status] = [...String(res.description ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
      }
      const media = Object.keys(op.requestBody?.content ?? {});
      ops.push({
        method: method.toUpperCase(),
        template,
        operationId: op.operationId,
        scope: ((security.find((s) => "bearerAuth" in s)?.bearerAuth as string[] | undefined) ?? [])[0] ?? null,
        // An operation whose security lists `{}` takes a key but needs none (GET /keys/{key_id}): public for the batteries.
        auth: security.some((s) => Object.keys(s).length === 0) ? "public"
          : security.some((s) => "metricsToken" in s) ? "metrics" : security.some((s) => "bearerAuth" in s) ? "key" : "public",
        body: media.includes("multipart/form-data") ? "multipart" : media.length ? "json" : null,
        query: (op.parameters ?? []).map(resolve).filter((p: { in: string }) => p.in === "query").map((p: { name: string }) => p.name),
        codes,
      });
    }
  }
  return ops;
}

/** A resource of the owner for each kind of path parameter, by the collection it names. */
export type Fixtures = { recordId: string; webhookId: string; mandateKeyId: string; fileId: string; eventId: string; apiKeyId: string; watchId: string };

/** The owner's resource each `{param}` of a path stands for (a status list: /status-lists/revocation/0). */
export function pathParams(template: string, f: Fixtures): { name: string; value: string }[] {
  return [...template.matchAll(/\/([a-z-]+)\/\{(\w+)\}(?:\/\{(\w+)\})?/g)].flatMap(([, collection, name, second]) => {
    const id = ({
      records: f.recordId, webhooks: f.webhookId, "mandate-keys": f.mandateKeyId, keys: f.mandateKeyId, files: f.fileId, events: f.eventId,
      "api-keys": f.apiKeyId, watches: f.watchId,
      "status-lists": "revocation",
    } as Record<string, string>)[collection!];
    if (!id) throw new Error(`no fixture for {${name}} in ${template}; add one for '${collection}' (tests/api-operations.ts)`);
    return second ? [{ name: name!, value: id }, { name: second, value: "0" }] : [{ name: name!, value: id }];
  });
}

/** The template with each `{param}` replaced by `values[param]` as it is (already encoded). */
export const fillPath = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

/** The operation's path with the owner's resources in it. */
export const pathFor = (op: Operation, f: Fixtures) =>
  fillPath(op.template, Object.fromEntries(pathParams(op.template, f).map((p) => [p.name, encodeURIComponent(p.value)])));

export function edPublicKey() {
  return (generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }) as { x: string }).x;
}

/** A well-formed body per operation, so a refusal can only come from what a test changes in it. */
const BODIES: Record<string, () => Record<string, unknown>> = {
  createRecord: () => companyStatus(),
  createRecordBatch: () => ({ records: [companyStatus()] }),
  changeRecordLifecycle: () => ({ operation: "suspend", reason: "security battery" }),
  createWebhook: () => ({ url: "http://127.0.0.1:9/battery" }),
  rotateWebhookSecret: () => ({ expire_current_in_s: 60 }),
  createApiKey: () => ({ scopes: ["account"] }),
  // Well-formed; whose event it names is checked after whose webhook it is (another key: webhook_not_found).
  replayWebhookEvent: () => ({ event_id: `evt_${"0".repeat(24)}` }),
  createMandateKey: () => ({ key_id: `battery-key-${randomUUID().slice(0, 8)}`, public_key: edPublicKey() }),
  createDomainChallenge: () => ({ domain: "battery.example.com" }),
  createWalletChallenge: () => ({ address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", network: "ethereum" }),
  updateAccount: () => ({ name: "Security Battery Ltd" }),
  changeRecordPrincipal: () => ({ principal_record_id: null }),
  refreshRecordEvidence: () => ({ evidence: { challenge_id: "wch_Xw2pL8d0Qn5rTs1yGv3k", signature: "0x00" } }),
  // Multipart in real use (tests/api/files.test.ts); a key is refused before the body is read.
  uploadFile: () => ({}),
  createWatch: () => ({ kind: "domain", value: `battery-${randomUUID().slice(0, 8)}.com` }),
  applyForOrganisationVerification: () => ({ applicant: { name: "Battery Person", role: "Director", email: "battery@example.com" }, documents: [] }),
};

/** A fresh well-formed body for `op`, or undefined when it takes none. */
export function bodyFor(op: Operation): Record<string, unknown> | undefined {
  if (!op.body) return undefined;
  const make = BODIES[op.operationId];
  if (!make) throw new Error(`add a well-formed body for ${op.operationId} (${op.method} ${op.template}) to tests/api-operations.ts`);
  return make();
}

/** A live account (growth) with one of each resource, made with its sandbox key. */
export async function accountWithResources() {
  const a = await newLiveAccount("growth");
  const rec = await issue(a.sandboxKey);
  // Subscribed to an event nothing here raises: its delivery list stays empty unless someone queues to it.
  const hook = await call("POST", "/api/v1/webhooks", { key: a.sandboxKey, body: { url: "http://127.0.0.1:9/owner", events: ["principal_link.changed"] } });
  expect(hook.status, hook.text).toBe(201);
  const mk = await call("POST", "/api/v1/mandate-keys", { key: a.sandboxKey, body: { key_id: `battery-${randomUUID().slice(0, 8)}`, public_key: edPublicKey() } });
  expect(mk.status, mk.text).toBe(201);
  const file = await upload(a.sandboxKey, PDF, "authority.pdf");
  expect(file.status, file.text).toBe(201);
  const events = await call("GET", `/api/v1/events?record_id=${rec.verification_id}`, { key: a.sandboxKey });
  // A key of its own to revoke (DELETE /api/v1/api-keys/{id}), so no battery revokes the owner's working key.
  const spare = await call("POST", "/api/v1/api-keys", { key: a.sandboxKey, body: { scopes: ["account"] } });
  expect(spare.status, spare.text).toBe(201);
  expect(events.body.data, events.text).toHaveLength(1);
  const watch = await call("POST", "/api/v1/watches", { key: a.sandboxKey, body: { kind: "name", value: `Battery Owner ${randomUUID().slice(0, 8)}` } });
  expect(watch.status, watch.text).toBe(201);
  const fixtures: Fixtures = {
    recordId: rec.verification_id, webhookId: hook.body.id, mandateKeyId: mk.body.key_id, fileId: file.body.id, eventId: events.body.data[0].id,
    apiKeyId: spare.body.id, watchId: watch.body.id,
  };
  return { ...a, fixtures };
}

/** What the owner's sandbox key sees of its own resources. */
export async function snapshot(key: string, f: Fixtures) {
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
    events: await get("/api/v1/events"),
    mandateKeys: await get("/api/v1/mandate-keys"),
    file: await get(`/api/v1/files/${f.fileId}`),
    organisation: await get("/api/v1/account/organisation-verification"),
    account: await get("/api/v1/account"),
    badgeSightings: await get("/api/v1/badge-sightings"),
    watches: await get("/api/v1/watches"),
  };
}

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthContext } from "@/lib/accounts/types";
import { domainChallengeRequest, walletChallengeRequest } from "@/lib/challenges/challenges";
import { domainEvidence } from "@/lib/claims/domain-ownership";
import { walletEvidence } from "@/lib/claims/wallet-ownership";
import type { Db } from "@/lib/db/client";
import { ERROR_CODES } from "@/lib/http/errors";
import { normalizeAddress, WALLET_NETWORKS } from "@/lib/proofs/wallet-address";
import { BATCH_MAX_RECORDS, LIFECYCLE_OPERATIONS, batchCreateSchema, listRecordsQuerySchema, recordCreateSchema } from "@/lib/record-model/schemas";
import type { HistoryRow, RecordRow } from "@/lib/public/record/serialize-record";
import { buildOpenApi, type JsonSchema, type OpenApiDocument } from "./build-openapi";
import { mandateKeyCreateSchema } from "@/lib/mandates/manage-mandate-keys";
import { domainChallengeSchema, walletChallengeSchema } from "@/lib/challenges/challenge-schema";
import { errorSchema } from "@/lib/http/error-schema";
import { mandateKeySchema, publicMandateKeySchema } from "@/lib/mandates/mandate-key-schema";
import { batchSchema } from "@/lib/records/batch-schema";
import { recordSchema } from "@/lib/public/record/record-schema";

// In-process: nothing here talks to the server the global setup starts. serializeRecord
// builds URLs from the environment, read lazily on first use.
process.env.PUBLIC_BASE_URL ??= "https://proof.example";

const BASE = "https://proof.example";
const ROOT = path.resolve(import.meta.dirname, "..", "..");

const ROUTES: [path: string, method: "get" | "post" | "patch" | "delete"][] = [
  ["/api/v1/records", "post"],
  ["/api/v1/records", "get"],
  ["/api/v1/records/batch", "post"],
  ["/api/v1/records/{id}", "get"],
  ["/api/v1/records/{id}/signature", "get"],
  ["/api/v1/records/{id}/status", "get"],
  ["/api/v1/lookup", "get"],
  ["/api/v1/check", "get"],
  ["/api/v1/records/{id}/lifecycle", "post"],
  ["/api/v1/domain-challenges", "post"],
  ["/api/v1/wallet-challenges", "post"],
  ["/api/v1/webhooks", "post"],
  ["/api/v1/webhooks", "get"],
  ["/api/v1/webhooks/{id}", "delete"],
  ["/api/v1/webhooks/{id}/test", "post"],
  ["/api/v1/webhooks/{id}/enable", "post"],
  ["/api/v1/webhooks/{id}/deliveries", "get"],
  ["/api/v1/webhooks/{id}/replay", "post"],
  ["/api/v1/webhooks/{id}/rotate-secret", "post"],
  ["/api/v1/events", "get"],
  ["/api/v1/api-keys", "post"],
  ["/api/v1/api-keys", "get"],
  ["/api/v1/api-keys/{id}", "delete"],
  ["/api/v1/events/{id}", "get"],
  ["/api/v1/webhooks/public-keys", "get"],
  ["/api/v1/mandate-keys", "post"],
  ["/api/v1/mandate-keys", "get"],
  ["/api/v1/mandate-keys/{key_id}", "delete"],
  ["/keys/{key_id}", "get"],
  ["/keys/{account_id}/{key_id}", "get"],
  ["/api/v1/usage", "get"],
  ["/api/v1/account", "get"],
  ["/api/v1/account", "patch"],
  ["/api/v1/files", "post"],
  ["/api/v1/files/{id}", "get"],
  ["/api/v1/account/organisation-verification", "post"],
  ["/api/v1/account/organisation-verification", "get"],
  ["/api/v1/records/{id}/principal", "patch"],
  ["/api/v1/records/{id}/evidence", "post"],
  ["/api/v1/openapi.json", "get"],
  ["/.well-known/jwks.json", "get"],
  ["/api/v1/records/{id}/log", "get"],
  ["/api/v1/records/{id}/history", "get"],
  ["/api/v1/records/{id}/vc", "get"],
  ["/api/v1/status-lists/{purpose}/{list}", "get"],
  ["/.well-known/did.json", "get"],
  ["/api/health", "get"],
  ["/api/health/live", "get"],
  ["/api/health/ready", "get"],
  ["/api/metrics", "get"],
  ["/api/v1/badge-sightings", "get"],
  // Impersonation watches (issue 31)
  ["/api/v1/watches", "post"],
  ["/api/v1/watches", "get"],
  ["/api/v1/watches/{id}", "delete"],
];

type Op = {
  description?: string;
  security?: unknown[];
  parameters?: JsonSchema[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema; examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, JsonSchema> }
  >;
};

let doc: OpenApiDocument;

/** Follow a local JSON pointer ("#/components/schemas/X") through the document. */
function pointer(ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`non-local $ref ${ref}`);
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function resolve<T = JsonSchema>(node: unknown): T {
  let cur = node as JsonSchema;
  for (let i = 0; i < 10 && typeof cur?.$ref === "string"; i++) cur = pointer(cur.$ref) as JsonSchema;
  return cur as T;
}

const op = (path: string, method: string) => (doc.paths[path] as Record<string, Op>)[method]!;

function collectRefs(node: unknown, at: string, out: { ref: string; at: string }[] = []) {
  if (Array.isArray(node)) node.forEach((v, i) => collectRefs(v, `${at}/${i}`, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push({ ref: v, at });
      else collectRefs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

beforeAll(() => {
  doc = buildOpenApi(BASE);
});

describe("buildOpenApi", () => {
  it("is an OpenAPI 3.1.0 document for the given base URL", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: BASE }]);
    // plain JSON all the way down (what the route serializes)
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("describes every route, and only public ones", () => {
    for (const [path, method] of ROUTES) {
      expect(doc.paths[path], path).toBeDefined();
      expect(op(path, method), `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(op(path, method).responses, `${method.toUpperCase()} ${path}`).toBeTypeOf("object");
    }
    const listed = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(listed.sort()).toEqual(ROUTES.map(([p, m]) => `${m} ${p}`).sort());
    expect(Object.keys(doc.paths).some((p) => p.includes("internal"))).toBe(false);
  });

  it("POST /api/v1/records takes recordCreateSchema, literally", () => {
    const post = op("/api/v1/records", "post");
    expect(post.requestBody?.required).toBe(true);
    const body = resolve<{ properties: Record<string, unknown>; additionalProperties: unknown; required: string[] }>(
      post.requestBody!.content["application/json"]!.schema,
    );
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(recordCreateSchema.shape).sort());
    expect(body.additionalProperties).toBe(false);
    expect(body.required).toEqual(expect.arrayContaining(["subject", "claim_type", "claim"]));
    expect(resolve(body.properties.subject)).toMatchObject({ type: "string", minLength: 1, maxLength: 300 });
    expect(resolve(body.properties.claim)).toMatchObject({ type: "string", maxLength: 2000 });
  });

  it("POST /api/v1/records requires an Idempotency-Key and documents replays", () => {
    const post = op("/api/v1/records", "post");
    const params = (post.parameters ?? []).map((p) => resolve(p));
    expect(params).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header", required: true }));
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(["200", "201", "202", "400", "401", "402", "409", "413", "415", "422"]),
    );
    expect(post.responses["200"]!.headers).toHaveProperty("Idempotent-Replayed");
    expect(post.responses["201"]!.headers).toHaveProperty("Request-Id");
    expect(post.security).toEqual([{ bearerAuth: ["records:write"] }]);
  });

  it("POST /api/v1/records/batch takes batchCreateSchema: 1-250 RecordCreate rows, one Idempotency-Key", () => {
    const post = op("/api/v1/records/batch", "post");
    expect(post.security).toEqual([{ bearerAuth: ["records:write"] }]);
    expect(post.requestBody?.required).toBe(true);
    const bodyRef = post.requestBody!.content["application/json"]!.schema;
    expect(bodyRef).toEqual({ $ref: "#/components/schemas/BatchCreate" });
    const body = resolve<{ properties: Record<string, JsonSchema>; additionalProperties: unknown; required: string[] }>(bodyRef);
    expect(Object.keys(body.properties)).toEqual(Object.keys(batchCreateSchema.shape));
    expect(body.required).toEqual(["records"]);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.records).toMatchObject({
      type: "array", minItems: 1, maxItems: BATCH_MAX_RECORDS, items: { $ref: "#/components/schemas/RecordCreate" },
    });
    expect(BATCH_MAX_RECORDS).toBe(250);
    for (const [name, { value }] of Object.entries(post.requestBody!.content["application/json"]!.examples!)) {
      const parsed = batchCreateSchema.safeParse(value);
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    const params = (post.parameters ?? []).map((p) => resolve(p));
    expect(params).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header", required: true }));
    expect(Object.keys(post.responses).sort()).toEqual(["200", "400", "401", "402", "403", "405", "409", "413", "415", "422", "500"]);
    expect(post.responses["200"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/Batch" });
    expect(post.responses["200"]!.headers).toHaveProperty("Idempotent-Replayed");
    for (const code of ["batch_too_large", "invalid_batch", "unknown_field", "idempotency_key_reused"]) {
      expect(post.responses["422"]!.description, code).toContain(`\`${code}\``);
    }
    expect(post.responses["402"]!.description).toContain("`plan_limit_reached`");
    expect(post.responses["409"]!.description).toContain("`idempotency_key_in_use`");
    expect(post.responses["400"]!.description).toContain("`idempotency_key_required`");
    const batch = resolve<{ properties: Record<string, JsonSchema>; required: string[] }>(doc.components.schemas.Batch);
    expect(batch.required.sort()).toEqual(["batch_id", "object", "results", "totals"]);
    const row = resolve<{ properties: Record<string, JsonSchema>; required: string[] }>(doc.components.schemas.BatchRowResult);
    expect(row.required.sort()).toEqual(["index", "outcome"]);
    expect(resolve(row.properties.outcome).enum).toEqual(["issued", "existing", "pending_review", "failed"]);
    expect(row.properties.error).toMatchObject({ $ref: "#/components/schemas/FieldError" });
  });

  it("the lifecycle body is lifecycleSchema", () => {
    const post = op("/api/v1/records/{id}/lifecycle", "post");
    const body = resolve<{ properties: Record<string, unknown>; required: string[]; additionalProperties: unknown }>(
      post.requestBody!.content["application/json"]!.schema,
    );
    expect(resolve(body.properties.operation).enum).toEqual([...LIFECYCLE_OPERATIONS]);
    expect(body.required).toEqual(expect.arrayContaining(["operation", "reason"]));
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "404", "409", "413", "415", "422"]),
    );
  });

  it("list query parameters come from listRecordsQuerySchema", () => {
    const get = op("/api/v1/records", "get");
    const query = (get.parameters ?? []).map((p) => resolve(p)).filter((p) => p.in === "query");
    expect(query.map((p) => p.name).sort()).toEqual(Object.keys(listRecordsQuerySchema.shape).sort());
    expect(query.find((p) => p.name === "limit")).toMatchObject({
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
    });
  });

  /**
   * Next allows one dynamic segment name per level, so the key read-backs share the folder
   * `app/keys/[id]`: the documented names of their parameters differ (issue 29).
   */
  const DOCUMENTED_AS: Record<string, string> = { "/keys/{id}": "/keys/{key_id}", "/keys/{id}/{key_id}": "/keys/{account_id}/{key_id}" };
  const routeDirOf = (p: string) => (Object.entries(DOCUMENTED_AS).find(([, doc]) => doc === p)?.[0] ?? p).slice(1).replace(/\{(\w+)\}/g, "[$1]");

  it("describes every route file under app/api (and the JWKS and key read-back), except the operator's and the catch-all", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name === "route.ts") files.push(path.relative(path.join(ROOT, "app"), path.dirname(p)));
      }
    };
    walk(path.join(ROOT, "app", "api"));
    walk(path.join(ROOT, "app", ".well-known"));
    walk(path.join(ROOT, "app", "keys"));
    const routes = files
      .filter((d) => !d.startsWith("api/internal") && !d.includes("[..."))
      .map((d) => "/" + d.split(path.sep).map((seg) => seg.replace(/^\[(\w+)\]$/, "{$1}")).join("/"))
      .map((r) => DOCUMENTED_AS[r] ?? r);
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(routes.sort()).toEqual(Object.keys(doc.paths).sort());
  });

  it("documents exactly the methods each route serves; 405 where otherMethods() answers the rest", async () => {
    const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
    for (const [p, item] of Object.entries(doc.paths)) {
      const dir = routeDirOf(p);
      const mod = (await import(path.join(ROOT, "app", dir, "route.ts"))) as Record<string, unknown>;
      const documented = Object.keys(item).map((m) => m.toUpperCase());
      for (const m of documented) expect(mod[m], `${m} ${p} is documented but not exported`).toBeTypeOf("function");
      const rest = METHODS.filter((m) => !documented.includes(m));
      const answered = rest.filter((m) => typeof mod[m] === "function");
      // A route either answers every other method itself (otherMethods) or leaves them all to Next.
      expect([0, rest.length], p).toContain(answered.length);
      for (const m of answered) {
        const handler = mod[m] as (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
        const res = await handler(new Request(`${BASE}${p}`, { method: m }), { params: Promise.resolve({ id: "PRS-0000000000000000000Z" }) });
        expect(res.status, `${m} ${p}`).toBe(405);
        expect(res.headers.get("request-id")).toMatch(/^req_/);
        expect(res.headers.get("allow")?.split(", ").sort(), `${m} ${p}`).toEqual([...documented].sort());
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
      }
      for (const [method, o] of Object.entries(item as Record<string, Op>)) {
        const res405 = o.responses["405"];
        if (answered.length === 0) {
          expect(res405, `${method} ${p}`).toBeUndefined();
          continue;
        }
        expect(res405?.description, `${method} ${p}`).toContain("`method_not_allowed`");
        expect(res405?.headers?.Allow, `${method} ${p}`).toEqual({ $ref: "#/components/headers/Allow" });
        expect(res405?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it.each([
    ["/api/v1/domain-challenges", domainChallengeRequest, "DomainChallenge", ["invalid_domain"]],
    ["/api/v1/wallet-challenges", walletChallengeRequest, "WalletChallenge", ["invalid_address", "unsupported_address_type"]],
  ] as const)("POST %s takes the handler's zod schema, literally", (p, schema, answer, codes) => {
    const post = op(p, "post");
    expect(post.security).toEqual([{ bearerAuth: ["challenges"] }]);
    expect(post.requestBody?.required).toBe(true);
    const bodyRef = post.requestBody!.content["application/json"]!.schema;
    expect(bodyRef).toEqual({ $ref: `#/components/schemas/${answer}Create` });
    const body = resolve<{ properties: Record<string, JsonSchema>; additionalProperties: unknown; required?: string[] }>(bodyRef);
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(schema.shape).sort());
    expect(body.additionalProperties).toBe(false);
    const required = Object.entries(schema.shape).filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k);
    expect((body.required ?? []).sort()).toEqual(required.sort());
    expect(post.responses["201"]!.content!["application/json"]!.schema).toEqual({ $ref: `#/components/schemas/${answer}` });
    expect(post.responses["201"]!.headers).toHaveProperty("Request-Id");
    expect(Object.keys(post.responses).sort()).toEqual(["201", "400", "401", "403", "405", "413", "415", "422", "500"]);
    for (const code of [...codes, "missing_field", "unknown_field"]) expect(post.responses["422"]!.description).toContain(`\`${code}\``);
    expect(post.responses["401"]!.description).toContain("`missing_api_key`");
  });

  it("challenge request fields keep their zod limits and enums", () => {
    const domain = resolve<{ properties: Record<string, JsonSchema> }>(doc.components.schemas.DomainChallengeCreate);
    expect(domain.properties.domain).toMatchObject({ type: "string", minLength: 1, maxLength: 300 });
    const wallet = resolve<{ properties: Record<string, JsonSchema> }>(doc.components.schemas.WalletChallengeCreate);
    expect(wallet.properties.address).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(wallet.properties.network!.enum).toEqual([...WALLET_NETWORKS]);
    expect(wallet.properties.claim_type!.enum).toEqual([...walletChallengeRequest.shape.claim_type.unwrap().options]);
  });

  it("challenge answers are the DomainChallenge and WalletChallenge components", () => {
    for (const [id, schema] of [["DomainChallenge", domainChallengeSchema], ["WalletChallenge", walletChallengeSchema]] as const) {
      const c = resolve<{ properties: Record<string, JsonSchema>; required: string[]; additionalProperties: unknown }>(doc.components.schemas[id]);
      expect(Object.keys(c.properties).sort(), id).toEqual(Object.keys(schema.shape).sort());
      expect(c.required.sort(), id).toEqual(Object.keys(schema.shape).sort());
      expect(c.additionalProperties, id).toBe(false);
    }
    const d = resolve<{ properties: Record<string, JsonSchema> }>(doc.components.schemas.DomainChallenge);
    expect(d.properties.id).toMatchObject({ type: "string", pattern: "^dch_[A-Za-z0-9]{20}$" });
    expect(d.properties.object).toMatchObject({ const: "domain_challenge" });
    const w = resolve<{ properties: Record<string, JsonSchema> }>(doc.components.schemas.WalletChallenge);
    expect(w.properties.id).toMatchObject({ type: "string", pattern: "^wch_[A-Za-z0-9]{20}$" });
    expect(resolve(w.properties.network).enum).toEqual([...WALLET_NETWORKS]);
  });

  it("POST /api/v1/records documents the domain and wallet proofs and their evidence", async () => {
    const post = op("/api/v1/records", "post");
    for (const word of ["domain_ownership", "wallet_ownership", "DomainOwnershipEvidence", "WalletOwnershipEvidence", "pending_review"]) {
      expect(post.description, word).toContain(word);
    }
    for (const code of ["challenge_not_found", "challenge_expired", "challenge_used", "subject_mismatch", "dns_record_not_found",
      "invalid_signature", "signature_mismatch"]) {
      expect(post.responses["422"]!.description, code).toContain(`\`${code}\``);
    }
    for (const [id, schema] of [["DomainOwnershipEvidence", domainEvidence], ["WalletOwnershipEvidence", walletEvidence]] as const) {
      const ev = resolve<{ properties: Record<string, JsonSchema>; required: string[]; additionalProperties: unknown }>(doc.components.schemas[id]);
      expect(ev, id).toBeDefined();
      expect(Object.keys(ev.properties).sort(), id).toEqual(Object.keys(schema.shape).sort());
      expect(ev.required.sort(), id).toEqual(Object.keys(schema.shape).sort());
      expect(ev.additionalProperties, id).toBe(false);
    }
    expect(resolve<{ properties: Record<string, JsonSchema> }>(doc.components.schemas.DomainOwnershipEvidence).properties.challenge_id)
      .toMatchObject({ pattern: "^dch_[A-Za-z0-9]{20}$" });
    // The request examples are valid requests.
    const examples = post.requestBody!.content["application/json"]!.examples!;
    expect(Object.keys(examples)).toEqual(expect.arrayContaining(["company_status", "domain_ownership", "wallet_ownership"]));
    const { validateRecordInput } = await import("@/lib/records/create-record");
    for (const [name, { value }] of Object.entries(examples)) {
      // The same parse a request gets: the base fields, and a type's own top-level fields.
      const parsed = (() => {
        try {
          validateRecordInput(value);
          return { success: true, error: undefined };
        } catch (e) {
          return { success: false, error: { issues: String(e) } };
        }
      })();
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    expect(domainEvidence.safeParse((examples.domain_ownership!.value as { evidence: unknown }).evidence).success).toBe(true);
    const wallet = examples.wallet_ownership!.value as { subject: string; evidence: unknown };
    expect(walletEvidence.safeParse(wallet.evidence).success).toBe(true);
    expect(normalizeAddress(wallet.subject, "ethereum")).toMatchObject({ address: wallet.subject, family: "evm" });
  });

  it("every error response is the Error envelope, with the whole code table", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, o] of Object.entries(item as Record<string, Op>)) {
        for (const [status, res] of Object.entries(o.responses)) {
          if (Number(status) < 400 || Number(status) === 503) continue;
          expect(res.content?.["application/json"]?.schema, `${method} ${path} ${status}`).toEqual({
            $ref: "#/components/schemas/Error",
          });
        }
      }
    }
    const envelope = resolve<{ properties: { error: { properties: Record<string, JsonSchema>; required: string[] } } }>(
      doc.components.schemas.Error,
    );
    const inner = envelope.properties.error;
    expect(resolve(inner.properties.code).enum).toEqual(Object.keys(ERROR_CODES));
    expect(resolve(inner.properties.type).enum).toEqual(
      expect.arrayContaining([...new Set(Object.values(ERROR_CODES).map(([, type]) => type))]),
    );
    expect(inner.required.sort()).toEqual(["code", "message", "request_id", "type"]);
  });

  it("authenticated operations use bearerAuth; public ones none", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(String(doc.components.securitySchemes.bearerAuth!.description)).toMatch(/prs_sandbox_.*prs_live_/);
    for (const p of ["/api/v1/records/{id}/status", "/api/v1/records/{id}/signature", "/api/v1/lookup", "/.well-known/jwks.json", "/api/v1/openapi.json", "/keys/{account_id}/{key_id}"]) {
      expect(op(p, "get").security, p).toEqual([]);
    }
    expect(op("/api/v1/usage", "get").security).toEqual([{ bearerAuth: ["account"] }]);
    for (const [p, m] of [["/api/v1/mandate-keys", "post"], ["/api/v1/mandate-keys", "get"], ["/api/v1/mandate-keys/{key_id}", "delete"]] as const) {
      expect(op(p, m).security, `${m} ${p}`).toEqual([{ bearerAuth: ["mandate_keys"] }]);
    }
    // The specification's public read-back takes an API key (the caller's own key) but needs none.
    expect(op("/keys/{key_id}", "get").security).toEqual([{ bearerAuth: ["mandate_keys"] }, {}]);
    // Every keyed operation names its scope, and a restricted key without it is refused with insufficient_scope.
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [m, o] of Object.entries(item)) {
        const keyed = ((o as { security?: Record<string, string[]>[] }).security ?? []).find((s) => "bearerAuth" in s);
        if (!keyed) continue;
        expect(keyed.bearerAuth, `${m} ${p}`).toHaveLength(1);
        expect(Object.keys(o.responses), `${m} ${p}`).toContain("403");
      }
    }
  });

  it("every $ref resolves to an existing component", () => {
    const refs = collectRefs(doc, "#");
    expect(refs.length).toBeGreaterThan(20);
    for (const { ref, at } of refs) {
      expect(ref, at).toMatch(/^#\/components\/(schemas|parameters|headers|responses)\//);
      expect(pointer(ref), `${ref} (at ${at})`).toBeDefined();
    }
    // components are plain schemas: no leftover standalone-document keywords from zod
    for (const [id, schema] of Object.entries(doc.components.schemas)) {
      expect(schema, id).not.toHaveProperty("$schema");
      expect(schema, id).not.toHaveProperty("$id");
      expect(schema, id).not.toHaveProperty("$defs");
    }
  });
});

describe("response schemas", () => {
  const now = new Date("2026-01-15T10:00:00.000Z");
  const base: RecordRow = {
    id: "PRS-0123456789ABCDEFGHJK", accountId: "acct_x", environment: "live", claimType: "company_status",
    subject: "Acme Ltd", claim: "Acme Ltd is an active company.", evidenceLevel: "source_verified", visibility: "public",
    evidencePublic: {}, evidencePrivate: null, status: "active", reviewReason: null, issuedAt: now, validFrom: now,
    expiresAt: new Date("2027-01-15T10:00:00.000Z"), recheckAt: null, statusChangedAt: now, supersededBy: null,
    requestedExpiresAt: null, signingKeyId: "prs-20260115-abcd", payloadSha256: "a".repeat(64), signature: "sig_-x",
    signedPayload: {}, createdAt: now,
  };
  const history: HistoryRow[] = [{ seq: 1, recordId: base.id, status: "active", at: now, reason: "Issued.", by: "owner:key_1" }];

  it("Record is exactly what serializeRecord produces (issued, pending, past expiry)", async () => {
    const { serializeRecord } = await import("@/lib/public/record/serialize-record");
    const { buildPublicView } = await import("@/lib/public/record/public-view");
    const pending: RecordRow = {
      ...base, status: "pending_review", reviewReason: "Needs a person.", issuedAt: null, validFrom: null, expiresAt: null,
      signingKeyId: null, payloadSha256: null, signature: null, signedPayload: null,
    };
    for (const [row, at] of [[base, now.getTime()], [pending, now.getTime()], [base, Date.parse("2028-01-01T00:00:00Z")]] as const) {
      const body = serializeRecord(buildPublicView(row, history, [], { name: "Acme Trading Ltd", name_verified: false, organisation: null, verified_domains: ["acme.example"] }, at));
      const parsed = recordSchema.safeParse(body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });

  it("DomainChallenge and WalletChallenge are exactly what the create functions return", async () => {
    const { createDomainChallenge, createWalletChallenge } = await import("@/lib/challenges/challenges");
    const inserted: unknown[] = [];
    const db = { insert: () => ({ values: async (v: unknown) => void inserted.push(v) }) } as unknown as Db;
    const auth: AuthContext = { accountId: "acct_x", environment: "sandbox", keyId: "key_1", plan: "none", role: "customer", accountName: null, scopes: null };
    const d = await createDomainChallenge(db, auth, { domain: "Bücher.example.com" });
    const dp = domainChallengeSchema.safeParse(d);
    expect(dp.success, JSON.stringify(dp.error?.issues)).toBe(true);
    expect(d).toMatchObject({ domain: "xn--bcher-kva.example.com", txt_name: "_prs-challenge.xn--bcher-kva.example.com" });
    const w = await createWalletChallenge(db, auth, { address: "0x8ba1f109551bd432803012645ac136ddd64dba72", network: "base" });
    const wp = walletChallengeSchema.safeParse(w);
    expect(wp.success, JSON.stringify(wp.error?.issues)).toBe(true);
    expect(w).toMatchObject({ address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", claim_type: "wallet_ownership" });
    expect(inserted).toHaveLength(2);
  });

  it("Batch is exactly what batchAnswer and replayedBatch produce", async () => {
    const { batchAnswer, replayedBatch } = await import("@/lib/records/batch-answer");
    const answer = batchAnswer("bat_0123456789abcdefghjk", [
      { index: 0, outcome: "issued", verification_id: base.id, status: "active", certificate_url: `${BASE}/r/${base.id}` },
      { index: 1, outcome: "pending_review", verification_id: "PRS-ABCDEFGHJK0123456789", status: "pending_review", certificate_url: null },
      { index: 2, outcome: "failed", error: { code: "dns_record_not_found", param: "records[2].evidence.challenge_id", message: "Publish it." } },
    ]);
    expect(answer.totals).toEqual({ issued: 1, existing: 0, pending_review: 1, failed: 1 });
    const again = replayedBatch(JSON.stringify(answer));
    expect(again.totals).toEqual({ issued: 0, existing: 2, pending_review: 0, failed: 1 });
    expect(again.results.map((r) => r.outcome)).toEqual(["existing", "existing", "failed"]);
    for (const body of [answer, again]) {
      const parsed = batchSchema.safeParse(body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });

  it("MandateKey and PublicMandateKey are exactly what the serializers produce (active and revoked)", async () => {
    const { serializeMandateKey, serializePublicMandateKey } = await import("@/lib/mandates/manage-mandate-keys");
    const row = {
      keyId: "acme-treasury:2026", accountId: "acct_x", environment: "live" as const, algorithm: "Ed25519" as const,
      publicKey: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", createdAt: now, revokedAt: null,
    };
    for (const r of [row, { ...row, revokedAt: now }]) {
      const owner = mandateKeySchema.safeParse(serializeMandateKey(r));
      expect(owner.success, JSON.stringify(owner.error?.issues)).toBe(true);
      // The owner named as every public answer names an account: a verified organisation, or a self-declared name.
      const selfDeclared = { name: "Acme", name_verified: false, organisation: null, verified_domains: [] };
      const verified = {
        name: "ACME TRADING LTD", name_verified: true, verified_domains: ["acme.example"],
        organisation: {
          legal_name: "ACME TRADING LTD", lei: "5493001KJTIIGC8Y1R12", jurisdiction: "GB", basis: "lei_register" as const, status: "verified" as const,
          verified_at: now.toISOString(), domains: ["acme.example"],
        },
      };
      for (const owner of [selfDeclared, verified]) {
        const pub = serializePublicMandateKey(r, owner);
        const parsed = publicMandateKeySchema.safeParse(pub);
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        expect(pub).toMatchObject({ account_id: "acct_x", account: owner });
      }
    }
    const post = op("/api/v1/mandate-keys", "post");
    const body = resolve<{ properties: Record<string, JsonSchema>; additionalProperties: unknown; required: string[] }>(
      post.requestBody!.content["application/json"]!.schema,
    );
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(mandateKeyCreateSchema.shape).sort());
    expect(body.required.sort()).toEqual(["key_id", "public_key"]);
    expect(body.additionalProperties).toBe(false);
    for (const code of ["invalid_public_key", "private_key_not_accepted", "field_not_allowed", "unknown_field"]) {
      expect(post.responses["422"]!.description, code).toContain(`\`${code}\``);
    }
    expect(post.responses["409"]!.description).toContain("`mandate_key_exists`");
    expect(op("/api/v1/mandate-keys/{key_id}", "delete").responses["404"]!.description).toContain("`mandate_key_not_found`");
  });

  it("Error matches errorBody", async () => {
    const { ApiError, errorBody } = await import("@/lib/http/errors");
    const body = errorBody(new ApiError("missing_field", "'claim' is required.", "claim"), "req_0123456789abcdefghjk");
    expect(errorSchema.safeParse(body).success).toBe(true);
  });
});

describe("GET /api/v1/openapi.json (route module, in-process)", () => {
  it("answers the document as JSON, publicly", async () => {
    const { GET } = await import("@/app/api/v1/openapi.json/route");
    const res = await GET(new Request(`${BASE}/api/v1/openapi.json`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    const body = (await res.json()) as OpenApiDocument;
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toEqual(Object.keys(doc.paths));
  });
});

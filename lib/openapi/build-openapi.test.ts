import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/lib/http/errors";
import { LIFECYCLE_OPERATIONS, listRecordsQuerySchema, recordCreateSchema } from "@/lib/records/schemas";
import type { HistoryRow, RecordRow } from "@/lib/records/serialize-record";
import { buildOpenApi, type JsonSchema, type OpenApiDocument } from "./build-openapi";
import { errorSchema, recordSchema } from "./response-schemas";

// In-process: nothing here talks to the server the global setup starts. serializeRecord
// builds URLs from the environment, read lazily on first use.
process.env.PUBLIC_BASE_URL ??= "https://proof.example";

const BASE = "https://proof.example";

const ROUTES: [path: string, method: "get" | "post"][] = [
  ["/api/v1/records", "post"],
  ["/api/v1/records", "get"],
  ["/api/v1/records/{id}", "get"],
  ["/api/v1/records/{id}/signature", "get"],
  ["/api/v1/records/{id}/status", "get"],
  ["/api/v1/records/{id}/lifecycle", "post"],
  ["/api/v1/usage", "get"],
  ["/api/v1/openapi.json", "get"],
  ["/.well-known/jwks.json", "get"],
  ["/api/health", "get"],
  ["/api/health/live", "get"],
];

type Op = {
  security?: unknown[];
  parameters?: JsonSchema[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, JsonSchema> }>;
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
    expect(post.security).toEqual([{ bearerAuth: [] }]);
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
    for (const p of ["/api/v1/records/{id}/status", "/api/v1/records/{id}/signature", "/.well-known/jwks.json", "/api/v1/openapi.json"]) {
      expect(op(p, "get").security, p).toEqual([]);
    }
    expect(op("/api/v1/usage", "get").security).toEqual([{ bearerAuth: [] }]);
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
    const { serializeRecord } = await import("@/lib/records/serialize-record");
    const pending: RecordRow = {
      ...base, status: "pending_review", reviewReason: "Needs a person.", issuedAt: null, validFrom: null, expiresAt: null,
      signingKeyId: null, payloadSha256: null, signature: null, signedPayload: null,
    };
    for (const [row, at] of [[base, now.getTime()], [pending, now.getTime()], [base, Date.parse("2028-01-01T00:00:00Z")]] as const) {
      const body = serializeRecord(row, history, at);
      const parsed = recordSchema.safeParse(body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
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

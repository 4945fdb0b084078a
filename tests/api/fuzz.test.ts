import { describe, expect, inject, it } from "vitest";
import { accountWithResources, bodyFor, documentedOperations, fillPath, pathParams, type Fixtures, type Operation } from "../api-operations";
import { baseUrl, call } from "../helpers";
import { PDF } from "../uploads";

/**
 * Seeded fuzzer over EVERY operation of the published OpenAPI document (a new operation is
 * fuzzed without anyone editing this file): each one is called with hostile path parameters
 * (NUL, overlong UTF-8, lone surrogates, emoji, 2 KB, malformed percent-encoding), hostile
 * query strings, and — for those that take one — JSON bodies with wrong types, deep nesting,
 * huge numbers, odd unicode and prototype names, cut short or of another media type, with the
 * right credentials (an API key, the operator's METRICS_TOKEN) so the input is what is judged.
 * Whatever it sends: never a 5xx; every error is the JSON envelope with the Request-Id and a
 * `code` the document lists for that operation and status; and nothing is half-written — the
 * caller's records, webhooks, mandate keys and metered usage change by exactly what the
 * accepted requests did. Reproduce a failure with PRS_FUZZ_SEED=<seed>.
 */
const SEED = Number(process.env.PRS_FUZZ_SEED ?? 20261126);

/** mulberry32: a tiny deterministic PRNG (not for secrets). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Path segments as sent (already percent-encoded where they are encoded). */
const PATH_VALUES = [
  "%00", "a%00b", "%C0%AF", "%C0%80", "%E0%80%AE", "%ED%A0%80", "%FF", "%", "%zz", "%2e%2e%2f", "a%2Fb", "%25",
  "%F0%9F%98%80", encodeURIComponent("😀".repeat(60)), "x".repeat(2048), encodeURIComponent("é".repeat(700)),
  "__proto__", "constructor", "%E2%80%AE", "%0A", "%20", "PRS-00000000000000000000", "PRS-0000000000000000000%00",
];

/** Query values, encoded the same way. */
const QUERY_VALUES = [
  ...PATH_VALUES.filter((v) => v.length < 100), "", "-1", "0", "1e308", "99999999999999999999", "true", "null", "[]", "%7B%7D",
  "2026-02-30T00:00:00Z", "9999-12-31T23:59:59Z", "x".repeat(2048),
];

const deepText = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
/** JSON number literals JavaScript cannot hold exactly (or at all). */
const RAW_NUMBERS = ["1e999", "-1e999", "123456789012345678901234567890", "-0", "1e-400", "0.30000000000000000000000000001"];
/** Values of another type than a field's, and strings a careless parser or database trips on. */
const WRONG_TYPES: unknown[] = [123, -1, 0.5, 1e308, true, false, null, [], [null], {}, { a: 1 }, "x"];
const ODD_STRINGS = [
  "a\u0000b", "\u0000", "x\ud800", "\udfff", "\ud83d", "Acme \u202Edetimil", "Ac\u200Bme", "\uFEFFAcme", "\u2066x\u2069",
  "😀".repeat(700), "x".repeat(5000), "", " ", "__proto__", "constructor", "e\u0301", "\u{10FFFF}", "%00", "\r\n",
  "javascript:alert(1)", "http://169.254.169.254/latest", "https://[::1]/", "file:///etc/passwd", "PRS-00000000000000000000",
];

type Req = { op: Operation; what: string; method: string; path: string; body?: string | FormData; contentType?: string; auth?: string };

function requests(ops: Operation[], f: Fixtures, rand: () => number, keys: { sandbox: string; live: string; metrics: string }): Req[] {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const some = <T,>(xs: readonly T[], n: number): T[] => [...xs].sort(() => rand() - 0.5).slice(0, n);
  const out: Req[] = [];
  for (const op of ops) {
    const auth = op.auth === "metrics" ? keys.metrics : op.auth === "key" ? (rand() < 0.75 ? keys.sandbox : keys.live) : rand() < 0.2 ? keys.sandbox : undefined;
    const params = pathParams(op.template, f);
    const own = Object.fromEntries(params.map((p) => [p.name, encodeURIComponent(p.value)]));
    // A DELETE on the owner's own resource would succeed whatever the query says: those keep to an id of nobody's.
    const base = fillPath(op.template, op.method === "DELETE" ? Object.fromEntries(params.map((p) => [p.name, "nobody-0000"])) : own);
    const add = (what: string, r: Partial<Req> = {}) => out.push({ op, what, method: op.method, path: base, auth, ...r });

    // Path parameters: one at a time replaced by a hostile segment.
    for (const value of params.length ? some(PATH_VALUES, 9) : []) {
      const p = pick(params);
      add(`{${p.name}}=${value.slice(0, 40)}`, { path: fillPath(op.template, { ...own, [p.name]: value }), ...(op.body === "json" ? jsonBody(bodyFor(op)!) : {}) });
    }
    // Query strings: each documented parameter, repeated, empty, bracketed; and one nobody documents.
    for (const name of op.query) {
      for (const value of some(QUERY_VALUES, 4)) add(`?${name}=${value.slice(0, 40)}`, { path: `${base}?${name}=${value}` });
      add(`?${name} twice`, { path: `${base}?${name}=${pick(QUERY_VALUES)}&${name}=${pick(QUERY_VALUES)}` });
      add(`?${name}[]`, { path: `${base}?${name}[]=${pick(QUERY_VALUES)}` });
    }
    add("unknown query", { path: `${base}?${pick(["__proto__", "constructor", "%00", "x".repeat(300), "limit"])}=${pick(QUERY_VALUES)}&&=&${pick(QUERY_VALUES)}` });
    if (op.body === "json") for (const b of bodies(bodyFor(op)!)) add(b.what, b);
    if (op.body === "multipart") for (const b of uploads()) add(b.what!, b);
  }
  return out;

  function jsonBody(o: unknown, what = "well-formed body") {
    return { what, body: JSON.stringify(o), contentType: "application/json" };
  }

  /** A well-formed body with one thing wrong in it. */
  function bodies(valid: Record<string, unknown>) {
    const fields = Object.keys(valid);
    const raw = (field: string, literal: string) => JSON.stringify({ ...valid, [field]: "\u0001RAW\u0001" }).replace('"\\u0001RAW\\u0001"', literal);
    const list = [
      jsonBody(valid, "well-formed body"),
      ...fields.flatMap((field) => [
        jsonBody({ ...valid, [field]: pick(WRONG_TYPES.filter((v) => typeof v !== typeof valid[field] || Array.isArray(v) !== Array.isArray(valid[field]))) }, `${field}: wrong type`),
        jsonBody({ ...valid, [field]: pick(ODD_STRINGS) }, `${field}: odd string`),
        jsonBody({ ...valid, [field]: pick(ODD_STRINGS) }, `${field}: odd string`),
        { what: `${field}: a number out of range`, body: raw(field, pick(RAW_NUMBERS)), contentType: "application/json" },
        jsonBody({ ...valid, [field]: JSON.parse(deepText(40)) }, `${field}: nested 40 deep`),
      ]),
      { what: "nested 3000 deep", body: deepText(3000), contentType: "application/json" },
      { what: "field nested 3000 deep", body: raw(pick(fields), deepText(3000)), contentType: "application/json" },
      { what: "__proto__ key", body: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"admin":true},'), contentType: "application/json" },
      { what: "constructor key", body: JSON.stringify({ ...valid, constructor: { prototype: { x: 1 } } }), contentType: "application/json" },
      { what: "duplicate keys", body: JSON.stringify(valid).replace(/^\{/, `{"${fields[0]}":${JSON.stringify(pick(ODD_STRINGS))},`), contentType: "application/json" },
      jsonBody({ ...valid, unknown_field: 1 }, "unknown field"),
      jsonBody({ ...valid, "a\u0000": "x" }, "NUL in a key"),
      jsonBody({ ...valid, evidence: { [pick(["note", "__proto__", "x\ud800"])]: pick(ODD_STRINGS) } }, "hostile evidence"),
      { what: "cut short", body: JSON.stringify(valid).slice(0, -2), contentType: "application/json" },
      { what: "BOM first", body: `\uFEFF${JSON.stringify(valid)}`, contentType: "application/json" },
      { what: "not an object", body: pick(["[]", '"x"', "42", "null", "true", "[{}]"]), contentType: "application/json" },
      { what: "empty", body: "", contentType: "application/json" },
      { what: "lone surrogate escape", body: JSON.stringify(valid).replace(/"$|\}$/, ',"x":"\\ud800"}'), contentType: "application/json" },
      { what: "form-encoded", body: new URLSearchParams(Object.entries(valid).map(([k, v]) => [k, String(v)])).toString(), contentType: "application/x-www-form-urlencoded" },
      { what: "text/plain", body: JSON.stringify(valid), contentType: "text/plain" },
      { what: "260 KB", body: JSON.stringify({ ...valid, pad: "x".repeat(260 * 1024) }), contentType: "application/json" },
    ];
    return list;
  }

  /** POST /api/v1/files as odd multipart forms (and not multipart at all). */
  function uploads() {
    const form = (name: string, bytes: Uint8Array, filename: string, type = "application/pdf") => {
      const fd = new FormData();
      fd.append(name, new Blob([new Uint8Array(bytes)], { type }), filename);
      return fd;
    };
    return [
      { what: "no file field", body: form("other", PDF, "a.pdf") },
      { what: "empty file", body: form("file", new Uint8Array(0), "empty.pdf") },
      { what: "HTML as a PDF", body: form("file", Buffer.from("<script>alert(1)</script>"), "x.pdf", "text/html") },
      { what: "odd filename", body: form("file", PDF, pick(["a\u0000b.pdf", "../../etc/passwd", `${"😀".repeat(300)}.pdf`, `${"x".repeat(2048)}.pdf`, "\u202Efdp.exe"])) },
      { what: "JSON instead", body: JSON.stringify({ file: "JVBERi0=" }), contentType: "application/json" },
      { what: "multipart without boundary", body: "--x\r\n\r\n", contentType: "multipart/form-data" },
      { what: "boundary that never closes", body: "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF", contentType: "multipart/form-data; boundary=b" },
    ] as Partial<Req>[];
  }
}

/** Codes any URL of the service may answer, before any route (docs/api.md, "Errors"): not repeated per operation. */
const SERVICE_WIDE: Record<number, string[]> = { 400: ["invalid_path", "invalid_query"] };

let ipSeq = 0;
/** Another client address for each request (TRUST_PROXY), so the lookup's per-address limit is not what answers. */
const nextIp = () => `100.64.${(++ipSeq >> 8) % 256}.${ipSeq % 256}`;

/** Everything of the owner's the fuzzer may change, counted. */
async function counts(keys: { sandbox: string; live: string }) {
  const listed = async (key: string, p: string) => {
    let n = 0;
    for (let after: string | undefined; ;) {
      const r = await call("GET", `${p}?limit=100${after ? `&starting_after=${after}` : ""}`, { key });
      expect(r.status, r.text).toBe(200);
      n += r.body.data.length;
      if (!r.body.has_more) return n;
      after = r.body.data.at(-1).verification_id;
    }
  };
  const usage = (await call("GET", "/api/v1/usage", { key: keys.live })).body;
  return {
    records: { sandbox: await listed(keys.sandbox, "/api/v1/records"), live: await listed(keys.live, "/api/v1/records") },
    webhooks: { sandbox: await listed(keys.sandbox, "/api/v1/webhooks"), live: await listed(keys.live, "/api/v1/webhooks") },
    mandateKeys: { sandbox: await listed(keys.sandbox, "/api/v1/mandate-keys"), live: await listed(keys.live, "/api/v1/mandate-keys") },
    liveRecordsMetered: usage.live_records.used as number,
    reviewsMetered: usage.reviewed_verifications.used as number,
  };
}

describe(`seeded fuzzer over every documented operation (PRS_FUZZ_SEED=${SEED})`, () => {
  it("no 5xx, every error a documented code in the envelope, nothing half-written", { timeout: 240_000 }, async () => {
    const ops = await documentedOperations();
    expect(ops.length).toBeGreaterThanOrEqual(41); // what the document lists today; more is fine
    const owner = await accountWithResources();
    const keys = { sandbox: owner.sandboxKey, live: owner.liveKey, metrics: inject("serverEnv").METRICS_TOKEN! };
    const before = await counts(keys);
    const expected = structuredClone(before);
    const reached = new Set<string>();
    const failures: string[] = [];
    const started = Date.now();
    const all = requests(ops, owner.fixtures, prng(SEED), keys);
    for (const r of all) {
      const headers: Record<string, string> = { "x-forwarded-for": nextIp() };
      if (r.auth) headers.Authorization = `Bearer ${r.auth}`;
      if (r.contentType) headers["Content-Type"] = r.contentType;
      if (r.method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
      const res = await fetch(baseUrl() + r.path, { method: r.method, headers, body: r.body, redirect: "manual" });
      const text = await res.text();
      const shown = typeof r.body === "string" ? r.body.slice(0, 120) : r.body ? "(multipart)" : "";
      const what = `${r.op.operationId} [${r.what}] ${r.method} ${r.path.slice(0, 120)} ${shown} → ${res.status} ${text.slice(0, 200)}`;
      reached.add(r.op.operationId);
      if (res.status >= 500) {
        failures.push(what);
        continue;
      }
      if (res.status >= 400) {
        let body: { error?: { code?: unknown; request_id?: unknown } } | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const code = body?.error?.code;
        if (typeof code !== "string" || body!.error!.request_id !== res.headers.get("request-id") || !/^application\/json/.test(res.headers.get("content-type") ?? "")) {
          failures.push(`no envelope: ${what}`);
        } else if (![...(r.op.codes[String(res.status)] ?? []), ...(SERVICE_WIDE[res.status] ?? [])].includes(code)) {
          failures.push(`undocumented ${res.status} ${code} (documented: ${JSON.stringify(r.op.codes[String(res.status)] ?? [])}): ${what}`);
        }
        continue;
      }
      // Accepted: what it adds to the owner's counts.
      const env = r.auth === keys.live ? "live" : "sandbox";
      const body = () => JSON.parse(text);
      if (r.op.operationId === "createRecord") {
        expected.records[env]++;
        if (env === "live" && body().status === "active") expected.liveRecordsMetered++;
      } else if (r.op.operationId === "createRecordBatch") {
        const written = body().results.filter((x: { verification_id?: string }) => x.verification_id);
        expected.records[env] += written.length;
        if (env === "live") expected.liveRecordsMetered += written.filter((x: { status: string }) => x.status === "active").length;
      } else if (r.op.operationId === "createWebhook") expected.webhooks[env]++;
      else if (r.op.operationId === "deleteWebhook") expected.webhooks[env]--;
      else if (r.op.operationId === "createMandateKey") expected.mandateKeys[env]++;
    }
    // One assertion, so a failing run shows both what was answered wrongly and what was half-written.
    expect({ failures, counts: await counts(keys) }).toEqual({ failures: [], counts: expected });
    expect([...reached].sort()).toEqual(ops.map((o) => o.operationId).sort());
    // What ran, for whoever tunes its size (CI budget: this file well under a minute).
    console.info(`fuzz: ${all.length} requests over ${ops.length} operations in ${Date.now() - started} ms (seed ${SEED})`);
  });

  it("pages outside the API answer odd paths and queries without a 5xx", { timeout: 60_000 }, async () => {
    const rand = prng(SEED + 1);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const failures: string[] = [];
    for (let i = 0; i < 40; i++) {
      const path = rand() < 0.5
        ? `/${pick(["r", "keys", "review", "admin", "records", "embed", "log/tile"])}/${pick(PATH_VALUES)}`
        : `/${pick(["review", "admin", "records", "signin", "confirm", "check", "directory", "r/PRS-00000000000000000000/qr", "embed.js"])}?${pick(["q", "claim_type", "token", "older_than", "format", "error"])}=${pick(QUERY_VALUES)}`;
      const res = await fetch(baseUrl() + path, { redirect: "manual", headers: { "x-forwarded-for": nextIp() } });
      await res.arrayBuffer();
      if (res.status >= 500) failures.push(`GET ${path.slice(0, 160)} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});

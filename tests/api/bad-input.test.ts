import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl, call, companyStatus, newAccount, type Res } from "../helpers";
import { withServerDb } from "../server-db";

async function rawBytes(method: string, path: string, key: string, bytes: Uint8Array) {
  const res = await fetch(baseUrl() + path, {
    method, body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}`, "Idempotency-Key": "k-bytes" },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

const generic = (over: Record<string, unknown> = {}) => ({
  subject: "Acme", claim_type: "press_coverage", claim: "Covered.",
  source_name: "Src", source_url: "https://example.org/x", checked_at: "2026-11-01T00:00:00Z", ...over,
});

type Case = {
  name: string;
  body?: unknown;
  raw?: string;
  bytes?: number[];
  headers?: Record<string, string>;
  path?: string;
  method?: string;
  status: number;
  code: string;
  param?: string;
};

const big = "x".repeat(257 * 1024);

/** Each malformed request with the exact answer it must get. Nothing in this table may write anything. */
const CASES: Case[] = [
  { name: "malformed JSON", raw: '{"subject": "A",', status: 400, code: "invalid_json" },
  { name: "empty body", raw: "", status: 400, code: "invalid_json" },
  { name: "JSON array body", raw: "[]", status: 422, code: "invalid_type" },
  { name: "JSON string body", raw: '"hello"', status: 422, code: "invalid_type" },
  { name: "null body", raw: "null", status: 422, code: "invalid_type" },
  { name: "invalid UTF-8", bytes: [0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d], status: 400, code: "invalid_json" },
  { name: "wrong content type", raw: "subject=A", headers: { "Content-Type": "application/x-www-form-urlencoded" }, status: 415, code: "unsupported_media_type" },
  { name: "body over 256 KiB", body: companyStatus({ claim: big }), status: 413, code: "body_too_large" },
  { name: "missing subject", body: companyStatus({ subject: undefined }), status: 422, code: "missing_field", param: "subject" },
  { name: "missing claim_type", body: companyStatus({ claim_type: undefined }), status: 422, code: "missing_field", param: "claim_type" },
  { name: "missing claim", body: companyStatus({ claim: undefined }), status: 422, code: "missing_field", param: "claim" },
  { name: "empty subject", body: companyStatus({ subject: "" }), status: 422, code: "missing_field", param: "subject" },
  { name: "subject is a number", body: companyStatus({ subject: 42 }), status: 422, code: "invalid_type", param: "subject" },
  { name: "claim is an object", body: companyStatus({ claim: { a: 1 } }), status: 422, code: "invalid_type", param: "claim" },
  { name: "subject over 300 chars", body: companyStatus({ subject: "s".repeat(301) }), status: 422, code: "too_long", param: "subject" },
  { name: "claim over 2000 chars", body: companyStatus({ claim: "c".repeat(2001) }), status: 422, code: "too_long", param: "claim" },
  { name: "control character in subject", body: companyStatus({ subject: "Acme\u0007" }), status: 422, code: "invalid_format", param: "subject" },
  { name: "unknown top-level field", body: companyStatus({ amount: 5 }), status: 422, code: "unknown_field", param: "amount" },
  { name: "unknown evidence field on company_status", body: companyStatus({ evidence: { lei: "x" } }), status: 422, code: "unknown_field", param: "evidence.lei" },
  { name: "evidence is an array", body: companyStatus({ evidence: [1] }), status: 422, code: "invalid_type", param: "evidence" },
  { name: "bad claim_type format", body: companyStatus({ claim_type: "Company Status" }), status: 422, code: "invalid_format", param: "claim_type" },
  { name: "exchange trade without its evidence", body: companyStatus({ claim_type: "exchange_verified_trade_test" }), status: 422, code: "invalid_value", param: "evidence.environment" },
  { name: "evm_transaction without its evidence", body: companyStatus({ claim_type: "evm_transaction" }), status: 422, code: "invalid_value", param: "evidence.network" },
  { name: "evm_transaction with a malformed hash", body: companyStatus({ claim_type: "evm_transaction", evidence: { network: "base", tx_hash: "0x12" } }), status: 422, code: "invalid_format", param: "evidence.tx_hash" },
  { name: "evm_transaction with an act but no agent record", body: companyStatus({ claim_type: "evm_transaction", evidence: { network: "base", tx_hash: "0x" + "ab".repeat(32), act: "pay" } }), status: 422, code: "missing_field", param: "evidence.agent_record" },
  { name: "evm_transaction citing a malformed agent record", body: companyStatus({ claim_type: "evm_transaction", evidence: { network: "base", tx_hash: "0x" + "ab".repeat(32), agent_record: "PRS-1" } }), status: 422, code: "invalid_format", param: "evidence.agent_record" },
  { name: "unknown evidence_level", body: companyStatus({ evidence_level: "gold" }), status: 422, code: "invalid_value", param: "evidence_level" },
  { name: "company_status claiming source_verified", body: companyStatus({ evidence_level: "source_verified" }), status: 422, code: "evidence_level_not_allowed", param: "evidence_level" },
  { name: "company_status with a source", body: companyStatus({ source_name: "Register" }), status: 422, code: "field_not_allowed", param: "source_name" },
  { name: "bad visibility", body: companyStatus({ visibility: "secret" }), status: 422, code: "invalid_value", param: "visibility" },
  { name: "generic claim without source_url", body: generic({ source_url: undefined }), status: 422, code: "missing_evidence", param: "source_url" },
  { name: "generic claim with ftp source_url", body: generic({ source_url: "ftp://example.org/x" }), status: 422, code: "invalid_format", param: "source_url" },
  { name: "generic claim with a non-date checked_at", body: generic({ checked_at: "yesterday" }), status: 422, code: "invalid_format", param: "checked_at" },
  { name: "generic claim checked in the future", body: generic({ checked_at: "2099-01-01T00:00:00Z" }), status: 422, code: "invalid_value", param: "checked_at" },
  { name: "evidence over 32 KiB", body: generic({ evidence: { blob: "e".repeat(33 * 1024) } }), status: 422, code: "too_large", param: "evidence" },
  { name: "expires_at in the past", body: companyStatus({ expires_at: "2020-01-01T00:00:00Z" }), status: 422, code: "invalid_value", param: "expires_at" },
  { name: "expires_at beyond five years", body: companyStatus({ expires_at: "2099-01-01T00:00:00Z" }), status: 422, code: "invalid_value", param: "expires_at" },
  { name: "__proto__ smuggling", raw: '{"subject":"A","claim_type":"company_status","claim":"c","__proto__":{"admin":true}}', status: 422, code: "unknown_field", param: "__proto__" },
  { name: "GET a malformed record id", method: "GET", path: "/api/v1/records/not-an-id", status: 404, code: "record_not_found" },
  { name: "GET an unknown record id", method: "GET", path: "/api/v1/records/PRS-00000000000000000000", status: 404, code: "record_not_found" },
  { name: "list with limit 0", method: "GET", path: "/api/v1/records?limit=0", status: 422, code: "too_short", param: "limit" },
  { name: "list with an unknown filter", method: "GET", path: "/api/v1/records?colour=red", status: 422, code: "unknown_field", param: "colour" },
  { name: "list with a bad status", method: "GET", path: "/api/v1/records?status=lost", status: 422, code: "invalid_value", param: "status" },
  { name: "lifecycle: unknown operation", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", body: { operation: "delete", reason: "because" }, status: 422, code: "invalid_value", param: "operation" },
  { name: "lifecycle: reason too short", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", body: { operation: "suspend", reason: "no" }, status: 422, code: "too_short", param: "reason" },
  { name: "lifecycle: reason missing", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", body: { operation: "suspend" }, status: 422, code: "missing_field", param: "reason" },
  { name: "lifecycle: bad superseded_by", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", body: { operation: "supersede", reason: "newer", superseded_by: "PRS-1" }, status: 422, code: "invalid_format", param: "superseded_by" },
  { name: "lifecycle: malformed JSON", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", raw: "{oops", status: 400, code: "invalid_json" },
  { name: "list with an unknown cursor", method: "GET", path: "/api/v1/records?starting_after=PRS-00000000000000000000", status: 422, code: "invalid_value", param: "starting_after" },
  { name: "unknown API path", method: "GET", path: "/api/v1/nope", status: 404, code: "not_found" },
  { name: "POST to an unknown API path", path: "/api/v1/nope", body: {}, status: 404, code: "not_found" },
  { name: "POST to a record id path", path: "/api/v1/records/batchz", body: {}, status: 405, code: "method_not_allowed" },
  { name: "DELETE on the records collection", method: "DELETE", path: "/api/v1/records", status: 405, code: "method_not_allowed" },
  { name: "PUT on the status endpoint", method: "PUT", path: "/api/v1/records/PRS-00000000000000000000/status", body: {}, status: 405, code: "method_not_allowed" },
  { name: "claim_type with upper case explains snake_case", body: companyStatus({ claim_type: "Award" }), status: 422, code: "invalid_format", param: "claim_type" },
  { name: "lifecycle on an unknown record", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", body: { operation: "suspend", reason: "test" }, status: 404, code: "record_not_found" },
  // Hostile input from the security review (docs/security.md, findings 5, 9 and 10): each was a 500 or slipped through.
  { name: "claim_type naming an Object.prototype member", body: companyStatus({ claim_type: "constructor" }), status: 422, code: "missing_evidence", param: "source_name" },
  { name: "claim_type __proto__", body: companyStatus({ claim_type: "__proto__" }), status: 422, code: "invalid_format", param: "claim_type" },
  { name: "NUL in evidence", body: generic({ evidence: { note: "a\u0000b" } }), status: 422, code: "invalid_value", param: "evidence.note" },
  { name: "NUL in an evidence key", body: generic({ evidence: { "a\u0000b": "x" } }), status: 422, code: "invalid_value", param: "evidence" },
  { name: "NUL in source_url", body: generic({ source_url: "https://example.org/\u0000" }), status: 422, code: "invalid_value", param: "source_url" },
  { name: "NUL in a webhook description", path: "/api/v1/webhooks", body: { url: "https://example.org/hook", description: "x\u0000" }, status: 422, code: "invalid_value", param: "description" },
  { name: "NUL in the list's claim_type filter", method: "GET", path: "/api/v1/records?claim_type=%00", status: 400, code: "invalid_query" },
  { name: "claim_type filter that is not snake_case", method: "GET", path: "/api/v1/records?claim_type=constructor%20x", status: 422, code: "invalid_format", param: "claim_type" },
  { name: "lone surrogate in subject", raw: '{"subject":"Acme \\ud800","claim_type":"company_status","claim":"c"}', status: 422, code: "invalid_value", param: "subject" },
  { name: "lone surrogate in claim", raw: '{"subject":"Acme","claim_type":"company_status","claim":"c \\udfff"}', status: 422, code: "invalid_value", param: "claim" },
  { name: "evidence nested 3,000 deep", raw: `{"subject":"Acme","claim_type":"press","claim":"c","evidence":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`, status: 422, code: "nesting_too_deep", param: "evidence" },
  { name: "__proto__ inside evidence", raw: '{"subject":"A","claim_type":"press","claim":"c","source_name":"S","source_url":"https://e.org/","checked_at":"2026-11-01T00:00:00Z","evidence":{"__proto__":{"x":1}}}', status: 422, code: "unknown_field", param: "evidence.__proto__" },
  { name: "bidi override in subject", body: companyStatus({ subject: "Acme \u202Edetimil" }), status: 422, code: "invalid_format", param: "subject" },
  { name: "bidi isolate in claim", body: companyStatus({ claim: "Acme \u2066is\u2069 active." }), status: 422, code: "invalid_format", param: "claim" },
  { name: "zero-width space in subject", body: companyStatus({ subject: "Ac\u200Bme" }), status: 422, code: "invalid_format", param: "subject" },
  { name: "zero-width joiner in claim", body: companyStatus({ claim: "Acme\u200D is active." }), status: 422, code: "invalid_format", param: "claim" },
  { name: "byte-order mark in subject", body: companyStatus({ subject: "\uFEFFAcme" }), status: 422, code: "invalid_format", param: "subject" },
  { name: "GET a certificate path that is not UTF-8", method: "GET", path: "/r/%ED%A0%80", status: 400, code: "invalid_path" },
  { name: "GET a mandate key path that is not UTF-8", method: "GET", path: "/keys/%ff", status: 400, code: "invalid_path" },
  { name: "GET a status path that is not UTF-8", method: "GET", path: "/api/v1/records/%ff/status", status: 400, code: "invalid_path" },
];

/** The error table of docs/api.md: each documented answer as "<status> <code> <type>". */
function documentedErrors(): Set<string> {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, "..", "..", "docs", "api.md"), "utf8");
  return new Set([...doc.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \| `([a-z_]+)` \|/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`));
}

/**
 * Everything stored for one account, read with SQL on the server's own database: each row of
 * every table with an `account_id` column, and the account's own row — except when a key was
 * last used, which any authenticated request may move on.
 */
async function storedFor(accountId: string): Promise<Record<string, unknown[]>> {
  return withServerDb(async (sql) => {
    const tables = await sql<{ table_name: string }[]>`
      select c.table_name from information_schema.columns c join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and c.column_name = 'account_id' and t.table_type = 'BASE TABLE'
      order by c.table_name`;
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["records", "idempotency_keys", "webhooks", "api_keys"]));
    const out: Record<string, unknown[]> = {};
    for (const { table_name } of tables) {
      const rows = await sql.unsafe(`select to_jsonb(t) - 'last_used_at' as row from "${table_name}" t where account_id = $1 order by to_jsonb(t)::text`, [accountId]);
      out[table_name] = rows.map((r) => r.row);
    }
    out.accounts = (await sql`select to_jsonb(a) as row from accounts a where id = ${accountId}`).map((r) => r.row);
    return out;
  });
}

async function send(c: Case, key: string): Promise<Res> {
  const method = c.method ?? "POST";
  const p = c.path ?? "/api/v1/records";
  const headers = { ...(c.raw !== undefined ? { "Content-Type": "application/json" } : {}), ...c.headers };
  return c.bytes ? rawBytes(method, p, key, new Uint8Array(c.bytes)) : call(method, p, { key, body: c.raw ?? c.body, headers });
}

describe("bad input never yields 500 and never writes", () => {
  it("answers every bad input with its documented 4xx and code, the same when sent again, and stores nothing for the account", async () => {
    const documented = documentedErrors();
    expect(documented.size).toBeGreaterThan(50); // the table was found
    const { sandboxKey, accountId } = await newAccount("bad-all");
    const before = await storedFor(accountId);
    expect(before.accounts).toHaveLength(1);
    for (const c of CASES) {
      const first = await send(c, sandboxKey);
      const again = await send(c, sandboxKey);
      for (const r of [first, again]) {
        expect(r.status, `${c.name}: ${r.text}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${c.name}: ${r.text}`).toBeLessThan(500);
        expect(r.body.error, c.name).toMatchObject({ code: c.code, ...(c.param !== undefined && { param: c.param }) });
        // A stable code: one of the documented table's, answered with the status and type written there.
        const answered = `${r.status} ${r.body.error.code} ${r.body.error.type}`;
        expect(documented.has(answered), `${c.name}: "${answered}" is a row of docs/api.md's error table`).toBe(true);
      }
      expect([again.status, again.body.error.code, again.body.error.param], c.name).toEqual([first.status, first.body.error.code, first.body.error.param]);
    }
    // Twice every bad input, and not one row of the account's was added, changed or removed.
    expect(await storedFor(accountId)).toEqual(before);
  }, 120_000);

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const { sandboxKey } = await newAccount("bad");
    const r = await send(c, sandboxKey);
    expect(r.status, r.text).toBe(c.status);
    expect(r.body.error.code, r.text).toBe(c.code);
    if (c.param) expect(r.body.error.param).toBe(c.param);
    expect(r.body.error.request_id).toBe(r.headers.get("request-id"));
    expect(typeof r.body.error.message).toBe("string");
    expect(r.body.error.message).not.toMatch(/regex/);
    if (c.status === 405) expect(r.headers.get("allow")).toBeTruthy();
    const list = await call("GET", "/api/v1/records", { key: sandboxKey });
    expect(list.body.data).toEqual([]);
  });
});

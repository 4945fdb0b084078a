import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { call, newAccount } from "../helpers";
import { withServerDb } from "../server-db";

/**
 * Secrets declared by a claim type never reach storage or the log. Reviewed claim types
 * declare credential fields (api_secret, password, …) that customers paste as further
 * evidence: marker secrets are planted through the API — top level, nested, and copied into
 * another field — then a full dump of the database and the captured server log are searched.
 */
const marker = () => `PRSMARK${randomBytes(12).toString("hex")}`;

async function dumpDatabase(): Promise<string> {
  return withServerDb(async (sql) => {
    const tables = await sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
    const parts: string[] = [];
    for (const { name } of tables) {
      const rows = await sql.unsafe(`select row_to_json(t)::text as j from "${name.replaceAll('"', '""')}" t`);
      parts.push(...rows.map((r) => String(r.j)));
    }
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["records", "idempotency_keys", "events"]));
    return parts.join("\n");
  });
}

describe("secrets are never stored or logged", () => {
  it("strips declared secret fields and their values from records, replays, events and the log", async () => {
    const { sandboxKey } = await newAccount("secrets");
    const [top, nested, batchSecret] = [marker(), marker(), marker()];
    const body = {
      subject: "Acme Trading Ltd", claim_type: "exchange_listing", claim: "Acme Trading Ltd is listed on Example Exchange.",
      source_name: "Example Exchange", source_url: "https://exchange.example/listing/acme", checked_at: "2026-11-01T00:00:00Z",
      evidence: { api_secret: top, note: `read-only key, secret ${top}`, login: { user: "acme", password: nested } },
    };
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body });
    expect(r.status, r.text).toBe(202);
    const b = await call("POST", "/api/v1/records/batch", {
      key: sandboxKey, body: { records: [{ ...body, evidence: { api_key: batchSecret, ticket: "T-1" } }] },
    });
    expect(b.status, b.text).toBe(200);
    expect(b.body.totals.pending_review).toBe(1);
    // a replay answers from the idempotency store, which holds no secret either
    const first = await call("POST", "/api/v1/records", { key: sandboxKey, body, idem: null, headers: { "Idempotency-Key": "secrets-replay" } });
    expect(first.status, first.text).toBe(202);
    const replay = await call("POST", "/api/v1/records", { key: sandboxKey, body, idem: null, headers: { "Idempotency-Key": "secrets-replay" } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    for (const s of [top, nested]) expect(replay.text).not.toContain(s);

    const dump = await dumpDatabase();
    expect(dump).toContain(r.body.verification_id); // the dump does see the records
    expect(dump).toContain("[secret removed]"); // the copied value, scrubbed
    expect(dump).toMatch(/"ticket": ?"T-1"/); // evidence that is not secret is kept for the reviewer
    for (const s of [top, nested, batchSecret]) expect(dump).not.toContain(s);

    const log = fs.readFileSync(path.join(inject("dataDir"), "server.log"), "utf8");
    expect(log.length).toBeGreaterThan(0);
    for (const s of [top, nested, batchSecret]) expect(log).not.toContain(s);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { call, issue, newAccount, untilPast } from "../helpers";
import { withServerDb } from "../server-db";

/**
 * Issue 29: public reads carry a bounded history. A record with more entries than an answer
 * carries (50) gets them straight into record_history (INSERT only: the table is append-only,
 * and its owner may change its status only LIFECYCLE_CHANGES_PER_HOUR times an hour), then one
 * real move through the API. Everything is compared with the whole history as stored, read
 * independently here.
 */

const RECENT = 50;
const INSERTED = 130; // even: alternating suspended/active, ending active like the row
type Entry = { status: string; at: string; reason: string | null; by: string };

let key: string;
let id: string;
/** The whole history as stored, oldest first, shown as the API shows it. */
let all: Entry[];

async function storedHistory(recordId: string): Promise<Entry[]> {
  return withServerDb(async (sql) => {
    const rows = await sql<{ status: string; at: Date; reason: string | null; by: string }[]>`
      select status, at, reason, by from record_history where record_id = ${recordId} order by seq`;
    return rows.map((r) => ({ status: r.status, at: new Date(r.at).toISOString(), reason: r.reason, by: r.by.split(":")[0]! }));
  });
}

const history = (recordId: string, query = "") => call("GET", `/api/v1/records/${recordId}/history${query}`);

beforeAll(async () => {
  ({ sandboxKey: key } = await newAccount("history"));
  const rec = await issue(key);
  id = rec.verification_id;
  // Room for the inserted entries, 2 ms apart, between the issue and the real move: the clock
  // must have passed the last one's time. time under test: the entries' times, not a guess.
  await untilPast(new Date(Date.parse(rec.lifecycle.issued_at) + INSERTED * 2).toISOString(), 100);
  await withServerDb(async (sql) => {
    await sql`
      insert into record_history (record_id, status, at, reason, by)
      select ${id}, case when g % 2 = 1 then 'suspended' else 'active' end,
             r.issued_at + g * interval '2 milliseconds', 'flip ' || g, 'system:test'
      from generate_series(1, ${INSERTED}::int) g, records r where r.id = ${id}`;
  });
  const moved = await call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation: "suspend", reason: "Paused by its owner." } });
  expect(moved.status, moved.text).toBe(200);
  all = await storedHistory(id);
  expect(all).toHaveLength(INSERTED + 2);
});

describe("a record with a long history", () => {
  it("answers its latest 50 entries, oldest first, with the count and a cursor for the rest", async () => {
    const r = await call("GET", `/api/v1/records/${id}`, { key });
    expect(r.status, r.text).toBe(200);
    const { lifecycle } = r.body;
    expect(lifecycle.history).toEqual(all.slice(-RECENT));
    expect(lifecycle.history_count).toBe(all.length);
    expect(lifecycle.history_before).toEqual(expect.any(Number));
    expect(lifecycle.status).toBe("suspended");
    expect(lifecycle.history.at(-1)).toMatchObject({ status: "suspended", reason: "Paused by its owner.", by: "owner" });
    // The moves announced to webhooks carry the same bounded record object.
    expect(Object.keys(lifecycle)).toEqual(["status", "issued_at", "valid_from", "expires_at", "recheck_at", "status_changed_at", "history", "history_count", "history_before"]);
  });

  it("a short history is whole: count = its length, no cursor", async () => {
    const fresh = await issue(key);
    expect(fresh.lifecycle).toMatchObject({ history_count: 1, history_before: null });
    expect(fresh.lifecycle.history).toHaveLength(1);
    const page = await history(fresh.verification_id);
    expect(page.body).toEqual({ object: "history_page", verification_id: fresh.verification_id, data: fresh.lifecycle.history, has_more: false, next_before: null });
  });

  it("pages the older entries without gaps or duplicates, whatever the page size", async () => {
    const owner = (await call("GET", `/api/v1/records/${id}`, { key })).body.lifecycle;
    for (const limit of [1, 7, 37, 200]) {
      const older: Entry[] = [];
      let before: number | null = owner.history_before;
      let pages = 0;
      while (before !== null) {
        const r = await history(id, `?before=${before}&limit=${limit}`);
        expect(r.status, r.text).toBe(200);
        expect(r.headers.get("access-control-allow-origin")).toBe("*");
        expect(r.body.object).toBe("history_page");
        expect(r.body.verification_id).toBe(id);
        expect(r.body.data.length).toBeLessThanOrEqual(limit);
        expect(r.body.data.length).toBeGreaterThan(0);
        expect(r.body.has_more).toBe(r.body.next_before !== null);
        older.unshift(...r.body.data);
        before = r.body.next_before;
        expect(++pages).toBeLessThanOrEqual(all.length);
      }
      expect([...older, ...owner.history], `limit ${limit}`).toEqual(all);
    }
    // Without a cursor: the latest page, the same entries the record carries.
    const latest = await history(id);
    expect(latest.body.data).toEqual(owner.history);
    expect(latest.body.next_before).toBe(owner.history_before);
    // A cursor before the first entry: an empty, last page.
    expect((await history(id, "?before=1")).body).toMatchObject({ data: [], has_more: false, next_before: null });
  });

  it("shows the latest entries on the certificate with a link to the older ones, and the owner's move on top", async () => {
    const page = await call("GET", `/r/${id}`);
    expect(page.status).toBe(200);
    const html = page.text.replaceAll("<!-- -->", "");
    const list = html.match(/data-testid="history">([\s\S]*?)<\/ol>/)?.[1] ?? "";
    expect(list.match(/<li/g)).toHaveLength(RECENT);
    expect(html).toContain(`The latest ${RECENT} of ${all.length} entries.`);
    const owner = (await call("GET", `/api/v1/records/${id}`, { key })).body.lifecycle;
    expect(html).toContain(`href="/r/${id}/history?before=${owner.history_before}"`);
    expect(html).toMatch(/data-testid="status-actor"[^>]*>Suspended by the account that issued it, [^<]*: Paused by its owner\./);

    // The history pages walk back to the first entry, each linking to the one before.
    let href: string | undefined = `/r/${id}/history?before=${owner.history_before}`;
    let shown = 0;
    while (href) {
      const r: { status: number; text: string } = await call("GET", href.replaceAll("&amp;", "&"));
      expect(r.status, href).toBe(200);
      shown += (r.text.match(/data-testid="history">([\s\S]*?)<\/ol>/)?.[1] ?? "").match(/<li/g)?.length ?? 0;
      href = r.text.match(/href="(\/r\/[^"]+\/history\?before=\d+)"/)?.[1];
    }
    expect(shown + RECENT).toBe(all.length);
    const bad = await call("GET", `/r/${id}/history?before=abc`);
    expect(bad.status).toBe(200);
    expect(bad.text).toContain("This is not a page of the history");
    expect((await call("GET", "/r/PRS-0000000000000000000Z/history")).status).toBe(404);
  });

  it("status?at= an instant in the middle of the history is the entry in force then", async () => {
    const signed = (await call("GET", `/api/v1/records/${id}/status`)).body;
    expect(signed.status).toBe("suspended");
    // The independent answer: the last stored entry at or before the instant.
    const expected = (ms: number) => all.filter((h) => Date.parse(h.at) <= ms).at(-1)!;
    for (const i of [1, 2, 33, 64, 65, 100, INSERTED, INSERTED + 1]) {
      const start = Date.parse(all[i]!.at);
      for (const ms of [start - 1, start, start + 1]) {
        const at = new Date(ms).toISOString();
        const r = await call("GET", `/api/v1/records/${id}/status?at=${encodeURIComponent(at)}`);
        expect(r.status, r.text).toBe(200);
        const want = expected(ms);
        expect(r.body, `entry ${i}, at ${at}`).toMatchObject({ status: want.status, status_changed_at: want.at, at });
      }
    }
  });
});

describe("GET /api/v1/records/{id}/history: refusals", () => {
  it("404s exactly where the public status read does", async () => {
    const pending = await call("POST", "/api/v1/records", {
      key,
      body: { subject: "History Pending Ltd", claim_type: "trade_licence", claim: "Holds licence 7.", visibility: "public",
        source_name: "Register", source_url: "https://register.example/7", checked_at: new Date().toISOString() },
    });
    expect(pending.status, pending.text).toBe(202);
    // A NUL or bytes that are not UTF-8 anywhere in a URL are the service-wide 400; the other ids are 404.
    const targets: [string, number][] = [
      [pending.body.verification_id, 404], ["PRS-0000000000000000000Z", 404], ["not-an-id", 404], ["x".repeat(300), 404],
      ["PRS-%00", 400], ["%FF%FE", 400],
    ];
    for (const [target, expected] of targets) {
      const status = await call("GET", `/api/v1/records/${target}/status`);
      const page = await history(target);
      expect(status.status, target).toBe(expected);
      expect(page.status, target).toBe(status.status);
      expect(page.body.error.type).toBe(status.body.error.type);
      expect(page.body.error.code).toBe(status.body.error.code);
      expect(page.body.error.param).toBe(status.body.error.param);
      expect(page.headers.get("access-control-allow-origin")).toBe(status.headers.get("access-control-allow-origin"));
    }
  });

  it.each([
    ["?before=abc", "before", "invalid_format"], ["?before=", "before", "invalid_format"], ["?before=-1", "before", "invalid_format"],
    ["?before=1.5", "before", "invalid_format"], ["?before=1e3", "before", "invalid_format"], ["?before=%01", "before", "invalid_format"],
    ["?before=%FF%FE", "before", "invalid_format"], ["?before=%EF%BC%91", "before", "invalid_format"], ["?before=99999999999999999", "before", "invalid_format"],
    ["?before=1&before=2", "before", "invalid_format"], ["?before=0", "before", "invalid_value"], ["?before=9999999999999999", "before", "invalid_value"],
    ["?limit=0", "limit", "invalid_value"], ["?limit=201", "limit", "invalid_value"], ["?limit=x", "limit", "invalid_format"],
    ["?limit=%C0%80", "limit", "invalid_format"], ["?limit=5&limit=5", "limit", "invalid_format"], [`?limit=${"9".repeat(5000)}`, "limit", "invalid_format"],
  ])("%s → 422 %s %s, never 500", async (query, param, code) => {
    const r = await history(id, query);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ type: "invalid_request_error", code, param });
    expect(r.body.error.request_id).toBe(r.headers.get("request-id"));
  });

  it("a NUL in the query is the service-wide 400 invalid_query, as on every route", async () => {
    for (const q of ["?before=%00", "?limit=%00"]) {
      const r = await history(id, q);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.code).toBe("invalid_query");
    }
  });

  it("ignores other query parameters (cache busters) and refuses other methods", async () => {
    expect((await history(id, "?_=1&limit=3")).body.data).toHaveLength(3);
    expect((await call("POST", `/api/v1/records/${id}/history`, { body: {} })).status).toBe(405);
  });
});

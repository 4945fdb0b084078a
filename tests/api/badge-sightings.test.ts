import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, call, issue, newAccount, newLiveAccount, until } from "../helpers";
import { domainRecord } from "../proved-records";

/*
 * Badge sightings (issue 31, docs/embed.md "What the service records"): the status endpoint
 * counts the `Origin` host in memory, the server adds the counts every BADGE_SIGHTINGS_FLUSH_MS
 * (300 ms in tests) and reports each new uncovered host once.
 */

const status = (id: string, origin?: string) =>
  call("GET", `/api/v1/records/${id}/status`, { headers: origin === undefined ? {} : { Origin: origin } });

const sightings = async (key: string, query = "") => {
  const r = await call("GET", `/api/v1/badge-sightings${query}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body.data as any[];
};

const seenElsewhere = async (key: string, id: string) => {
  const r = await call("GET", `/api/v1/events?type=badge.seen_elsewhere&record_id=${id}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body.data as any[];
};

const imposter = () => `imposter-${randomUUID().slice(0, 8)}.example`;

describe("badge sightings", () => {
  it("counts an uncovered host's badge loads and reports it to the owner exactly once", async () => {
    const a = await newAccount("sight");
    const { id, domain } = await domainRecord(a.sandboxKey);
    const host = imposter();
    for (let i = 0; i < 2; i++) expect((await status(id, `https://${host}`)).status).toBe(200);
    const s = await until("the sighting", async () => (await sightings(a.sandboxKey)).find((x) => x.host === host && x.count === 2));
    expect(s).toMatchObject({
      object: "badge_sighting", id: `${id}:${host}`, record_id: id, host, covered: false, count: 2,
      certificate_url: `${baseUrl()}/r/${id}`,
    });
    expect(Date.parse(s.first_seen_at)).toBeLessThanOrEqual(Date.parse(s.last_seen_at));
    expect(s.reported_at).not.toBeNull();
    const events = await seenElsewhere(a.sandboxKey, id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ host, first_seen_at: s.first_seen_at, covers: [domain, `www.${domain}`] }); // exact hosts: the one coverage rule
    expect(events[0].data.record).toMatchObject({ verification_id: id, subject: domain });

    // More loads, later flushes: the count grows, the report is not repeated.
    expect((await status(id, `https://${host}`)).status).toBe(200);
    await until("count 3", async () => (await sightings(a.sandboxKey)).find((x) => x.host === host && x.count === 3));
    // The flush that added it wrote any report in the same transaction (flush-sightings.ts), and a
    // round with no new loads writes nothing: so no second report, now or later.
    expect(await seenElsewhere(a.sandboxKey, id)).toHaveLength(1);
    // The port and scheme are not part of the host: http on another port is the same site.
    expect((await status(id, `http://${host}:8080`)).status).toBe(200);
    await until("count 4", async () => (await sightings(a.sandboxKey)).find((x) => x.host === host && x.count === 4));
    expect((await sightings(a.sandboxKey, `?record_id=${id}`)).filter((x) => x.host === host)).toHaveLength(1);
    expect(await seenElsewhere(a.sandboxKey, id)).toHaveLength(1);
  });

  it("covers exactly the record's hosts and the account's proved domains (each with www.): another subdomain is reported, as the badge warns there", async () => {
    // Live: the account's proved domains count only while proved by live records.
    const a = await newLiveAccount();
    const key = a.liveKey;
    const { id, domain } = await domainRecord(key);
    // Another record of the same account (no website of its own) is covered on the account's proved domain.
    const company = (await issue(key)).verification_id as string;
    for (const o of [`https://${domain}`, `https://www.${domain}`, `https://shop.${domain}:8443`]) expect((await status(id, o)).status).toBe(200);
    expect((await status(company, `https://${domain}`)).status).toBe(200);
    const list = await until("four sightings", async () => {
      const l = await sightings(key);
      return l.length === 4 ? l : null;
    });
    // One coverage rule (issue 38, item 13): the badge on shop.‹domain› says "a site this record does not cover", so the owner hears of it.
    expect(list.map((x) => [x.record_id, x.host, x.covered]).sort()).toEqual([
      [company, domain, true], [id, domain, true], [id, `shop.${domain}`, false], [id, `www.${domain}`, true],
    ].sort());
    expect(list.filter((x) => x.covered).every((x) => x.reported_at === null)).toBe(true);
    const badge = await status(id, `https://shop.${domain}`);
    expect(badge.body.covers_hosts).toEqual([domain, `www.${domain}`]);
    // A look-alike that merely ends with the domain's text is not covered either.
    const lookalike = `evil${domain}`;
    expect((await status(id, `https://${lookalike}`)).status).toBe(200);
    const s = await until("the look-alike", async () => (await sightings(key, "?covered=no")).find((x) => x.host === lookalike));
    expect(s).toMatchObject({ covered: false, count: 1 });
    expect((await seenElsewhere(key, id)).length).toBe(2);
    expect(await seenElsewhere(key, company)).toHaveLength(0);
  });

  it("stores nothing without an Origin, for the service's own origin, or for an odd Origin — and never fails the status", async () => {
    const a = await newAccount("sight");
    const id = (await issue(a.sandboxKey)).verification_id as string;
    const odd = [
      "null", "file://", "javascript:alert(1)", "ftp://files.example", "http://a.example/path", "http://user@a.example", "https://a.example?x=1",
      "https://", "http://[::1", "%%%", "not an origin", `https://${"a".repeat(300)}.example`, "data:text/html,hi", "HTTPS://a.example/", "https://a.example:99999",
    ];
    expect((await status(id)).status).toBe(200);
    expect((await status(id, new URL(baseUrl()).origin)).status).toBe(200);
    for (const o of odd) expect((await status(id, o)).status, o).toBe(200);
    // ?at= answers (history, not a badge) are not counted either.
    expect((await call("GET", `/api/v1/records/${id}/status?at=${new Date().toISOString()}`, { headers: { Origin: "https://at-question.example" } })).status).toBe(200);
    // A marker sent after all of them: once it is stored, everything before it was flushed.
    expect((await status(id, "https://marker.example")).status).toBe(200);
    await until("the marker", async () => (await sightings(a.sandboxKey)).find((x) => x.host === "marker.example"));
    expect((await sightings(a.sandboxKey)).map((x) => x.host)).toEqual(["marker.example"]);
    // An unknown record's status is a 404 and counts nothing (there is no row to count against).
    expect((await status(`PRS-${"0".repeat(20)}`, "https://marker.example")).status).toBe(404);
  });

  it("lists only the key's own records' sightings, pages with a cursor, and needs the watches scope", async () => {
    const a = await newAccount("sight");
    const b = await newAccount("sight");
    const id = (await issue(a.sandboxKey)).verification_id as string;
    const hosts = [imposter(), imposter(), imposter()];
    for (const h of hosts) expect((await status(id, `https://${h}`)).status).toBe(200);
    await until("three", async () => (await sightings(a.sandboxKey)).length === 3);

    // Another account sees none of them, and may not name the record.
    expect(await sightings(b.sandboxKey)).toEqual([]);
    const other = await call("GET", `/api/v1/badge-sightings?record_id=${id}`, { key: b.sandboxKey });
    expect(other.status, other.text).toBe(404);
    expect(other.body.error.code).toBe("record_not_found");
    // Nor use a's sighting as a cursor.
    const cur = await call("GET", `/api/v1/badge-sightings?starting_after=${encodeURIComponent(`${id}:${hosts[0]}`)}`, { key: b.sandboxKey });
    expect(cur.status, cur.text).toBe(422);
    expect(cur.body.error.code).toBe("invalid_value");

    // Pages of one: every sighting once, in the list's order.
    const all = await sightings(a.sandboxKey);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const r: { status: number; text: string; body: any } = await call("GET", `/api/v1/badge-sightings?limit=1${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`, { key: a.sandboxKey });
      expect(r.status, r.text).toBe(200);
      seen.push(...r.body.data.map((x: any) => x.id));
      if (!r.body.has_more) break;
      after = r.body.data[0].id;
    }
    expect(seen).toEqual(all.map((x) => x.id));

    // Bad questions: 422 with a stable code, never 500.
    const codes: Record<string, string> = {};
    for (const q of ["?limit=0", "?covered=maybe", "?starting_after=nope", "?record_id=PRS-1", "?colour=red"]) {
      const r = await call("GET", `/api/v1/badge-sightings${q}`, { key: a.sandboxKey });
      expect(r.status, `${q}: ${r.text}`).toBe(422);
      codes[q] = r.body.error.code;
    }
    expect(codes).toEqual({ "?limit=0": "too_short", "?covered=maybe": "invalid_value", "?starting_after=nope": "invalid_format", "?record_id=PRS-1": "invalid_format", "?colour=red": "unknown_field" });

    // Scope: a key restricted to records:read may not; one with watches may.
    const narrow = (await call("POST", "/api/v1/api-keys", { key: a.sandboxKey, body: { scopes: ["records:read"] } })).body.key as string;
    const refused = await call("GET", "/api/v1/badge-sightings", { key: narrow });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    const watcher = (await call("POST", "/api/v1/api-keys", { key: a.sandboxKey, body: { scopes: ["watches"] } })).body.key as string;
    expect((await sightings(watcher)).length).toBe(3);
    expect((await call("GET", "/api/v1/badge-sightings")).status).toBe(401);
  });

  it("the certificate warns a visitor who came from an uncovered host that showed the badge, and nobody else", async () => {
    const a = await newAccount("sight");
    const { id, domain } = await domainRecord(a.sandboxKey);
    const host = imposter();
    expect((await status(id, `https://${host}`)).status).toBe(200);
    await until("the sighting", async () => (await sightings(a.sandboxKey)).find((x) => x.host === host));
    const page = (referer?: string) => call("GET", `/r/${id}`, { headers: referer ? { Referer: referer } : {} });

    const warned = await page(`https://${host}/`);
    expect(warned.status).toBe(200);
    expect(warned.text).toContain('data-testid="arrived-from"');
    expect(warned.text).toContain(host);
    expect(warned.text).toMatch(new RegExp(`It covers exactly .*${domain.replaceAll(".", "\\.")}.* and no other site`));
    for (const r of [undefined, `https://${domain}/`, `https://www.${domain}/x`, `${baseUrl()}/directory`, `https://${imposter()}/`, "not a url"]) {
      const p = await page(r);
      expect(p.status, String(r)).toBe(200);
      expect(p.text, String(r)).not.toContain('data-testid="arrived-from"');
    }
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { admin, call, issue, newAccount, newLiveAccount, sentenceText, withShortExpiry, untilPast } from "../helpers";

/**
 * The public directory (CONTRACT "Directory"): live, public, active records only, newest
 * first, searchable, server-rendered. Everything else — sandbox, private, pending, suspended,
 * revoked, expired — never appears.
 */
const page = async (query: string) => (await call("GET", `/directory?${query}`)).text;
const listed = (html: string, id: string) => html.includes(`data-id="${id}"`);

describe("the public directory", () => {
  it("lists a live, public, active record, and no record that is not", async () => {
    const tag = `Dirtest ${randomUUID().slice(0, 8)}`;
    const live = await newLiveAccount();
    const sandbox = await newAccount("dir");
    const shown = (await issue(live.liveKey, { subject: `${tag} Shown Ltd`, visibility: "public" })).verification_id;
    const priv = (await issue(live.liveKey, { subject: `${tag} Private Ltd`, visibility: "private" })).verification_id;
    const sbx = (await issue(sandbox.sandboxKey, { subject: `${tag} Sandbox Ltd`, visibility: "public" })).verification_id;
    const suspended = (await issue(live.liveKey, { subject: `${tag} Suspended Ltd`, visibility: "public" })).verification_id;
    const revoked = (await issue(live.liveKey, { subject: `${tag} Revoked Ltd`, visibility: "public" })).verification_id;
    for (const [id, operation] of [[suspended, "suspend"], [revoked, "revoke"]] as const) {
      expect((await call("POST", `/api/v1/records/${id}/lifecycle`, { key: live.liveKey, body: { operation, reason: "Directory test." } })).status).toBe(200);
    }
    const pending = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: { subject: `${tag} Pending Ltd`, claim_type: "trade_licence", claim: "Holds licence 7.", visibility: "public",
        source_name: "Register", source_url: "https://register.example/7", checked_at: new Date().toISOString() },
    });
    expect(pending.status).toBe(202);
    const { res: expiring, expiresAt } = await withShortExpiry((expires_at) =>
      call("POST", "/api/v1/records", { key: live.liveKey, body: { subject: `${tag} Expiring Ltd`, claim_type: "company_status", claim: "Active.", visibility: "public", expires_at } }));
    expect(expiring.status).toBe(201);
    await untilPast(expiresAt);

    const html = await page(`q=${encodeURIComponent(tag)}`);
    expect(listed(html, shown)).toBe(true);
    for (const id of [priv, sbx, suspended, revoked, pending.body.verification_id, expiring.body.verification_id]) expect(listed(html, id), id).toBe(false);
    expect(html).toContain(`href="/r/${shown}"`);
    expect(html).toContain("Stated by an unnamed account");
  });

  it("filters by kind, treats search characters literally, and ignores bad parameters", async () => {
    const live = await newLiveAccount();
    const tag = `Dirkind ${randomUUID().slice(0, 8)}`;
    const id = (await issue(live.liveKey, { subject: `${tag} Ltd`, visibility: "public" })).verification_id;
    expect(listed(await page(`q=${encodeURIComponent(tag)}&claim_type=company_status`), id)).toBe(true);
    expect(listed(await page(`q=${encodeURIComponent(tag)}&claim_type=domain_ownership`), id)).toBe(false);
    expect(await page("q=%25%25%25zz-nothing-like-this")).toContain("No public record matches.");
    for (const odd of ["cursor=nonsense", "claim_type=%3Cscript%3E", `q=${"x".repeat(500)}`, "q=%F0%9F%98%80"]) {
      const r = await call("GET", `/directory?${odd}`);
      expect(r.status, odd).toBe(200);
      expect(r.text).not.toContain("<script>");
    }
  });

  it("a search for a verified organisation's name starts with it; another account's record under that exact name is marked as not from it", async () => {
    const legal = `Harbourside ${randomUUID().slice(0, 8)} Trading Ltd`;
    const real = await newLiveAccount();
    await admin("organisation", "verify", "--account", real.accountId, "--legal-name", legal);
    const realRecord = (await issue(real.liveKey, { subject: legal, visibility: "public" })).verification_id;
    // The attacker: calls itself by the real name and issues a record under it; a second one only borrows the name as a subject.
    const attacker = await newLiveAccount();
    expect((await call("PATCH", "/api/v1/account", { key: attacker.liveKey, body: { name: legal } })).status).toBe(200);
    const copied = (await issue(attacker.liveKey, { subject: legal, visibility: "public" })).verification_id;
    const borrower = await newLiveAccount();
    const borrowed = (await issue(borrower.liveKey, { subject: legal.toUpperCase(), visibility: "public" })).verification_id;

    const html = await page(`q=${encodeURIComponent(legal.split(" ").slice(0, 2).join(" "))}`);
    const text = sentenceText(html);
    // The verified organisation heads the answer, before any record.
    const head = html.indexOf('data-testid="directory-organisations"');
    expect(head).toBeGreaterThan(-1);
    expect(head).toBeLessThan(html.indexOf('data-testid="directory-row"'));
    expect(text).toContain(`✓ ${legal}`);
    expect(html).toContain(`href="/directory?account=${real.accountId}"`);
    // Each row from another account under the name says so; the organisation's own record does not.
    const row = (id: string) => { const at = html.indexOf(`data-id="${id}"`); expect(at, id).toBeGreaterThan(-1); return html.slice(at, html.indexOf("</li>", at)); };
    for (const id of [copied, borrowed]) {
      expect(row(id), id).toContain('data-testid="not-this-organisation"');
      expect(sentenceText(row(id)), id).toContain(`Not from ${legal}: that name belongs to a verified organisation, and this record is from another account.`);
    }
    expect(row(realRecord)).not.toContain("not-this-organisation");
    expect(sentenceText(row(realRecord))).toContain(`${legal}, a verified organisation`);

    // The organisation's records alone: its own, none of the copies.
    const own = await page(`account=${real.accountId}`);
    expect(listed(own, realRecord)).toBe(true);
    for (const id of [copied, borrowed]) expect(listed(own, id), id).toBe(false);
    // Once the organisation is no longer verified, the name is nobody's: no head, no mark.
    await admin("organisation", "remove", "--account", real.accountId);
    const after = await page(`q=${encodeURIComponent(legal)}`);
    expect(after).not.toContain('data-testid="directory-organisations"');
    expect(after).not.toContain('data-testid="not-this-organisation"');
    expect(listed(after, copied)).toBe(true);
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, issue, newAccount, newLiveAccount, withShortExpiry, untilPast } from "../helpers";

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
});

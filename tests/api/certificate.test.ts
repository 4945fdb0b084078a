import { describe, expect, it } from "vitest";
import { baseUrl, call, issue, newAccount, newLiveAccount } from "../helpers";
import { domainRecord } from "../proved-records";

describe("certificate page and QR code", () => {
  it("renders subject, claim, evidence level in plain words, status, validity, history and how to verify", async () => {
    const { sandboxKey } = await newAccount();
    const rec = await issue(sandboxKey, { subject: "Globex <Corp> & Co" });
    const r = await call("GET", `/r/${rec.verification_id}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/text\/html/);
    const html = r.text;
    expect(html).toContain("Globex &lt;Corp&gt; &amp; Co"); // escaped, never raw
    expect(html).toContain(rec.claim);
    expect(html).toContain("company status");
    expect(html).toContain("Sandbox test record — proves nothing");
    expect(html).toContain("an unnamed account"); // who is speaking, even when it set no name
    expect(html).toContain("What this record does not prove");
    expect(html).toContain('data-testid="status-badge"');
    expect(html).toContain(rec.integrity.signing_key_id);
    expect(html).toContain(rec.integrity.signature);
    expect(html).toContain("/.well-known/jwks.json");
    expect(html).toContain("Sandbox — not verified");
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(html).toContain("<svg"); // inline QR
  });

  it("keeps a live statement nobody checked out of search engines, and makes a revoked one unmistakable", async () => {
    const acct = await newLiveAccount();
    const rec = await issue(acct.liveKey, { visibility: "public" });
    const page = await call("GET", `/r/${rec.verification_id}`);
    // participant_attested: the account's own word; only checked records may be indexed (e2e/certificate.spec.ts)
    expect(page.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(page.text).toContain("Stated by an unnamed account — not checked");
    expect(page.text).not.toContain('data-testid="status-alert"');
    await call("POST", `/api/v1/records/${rec.verification_id}/lifecycle`, { key: acct.liveKey, body: { operation: "revoke", reason: "Company dissolved" } });
    const revoked = await call("GET", `/r/${rec.verification_id}`);
    expect(revoked.text).toContain('data-testid="status-alert"');
    expect(revoked.text).toContain("REVOKED");
    expect(revoked.text).toContain("Company dissolved");
  });

  it("lets search engines index a certificate only while the trust decision calls the record verified (issue 38)", async () => {
    const acct = await newLiveAccount();
    const { id } = await domainRecord(acct.liveKey);
    const robots = async () => /<meta name="robots" content="noindex, nofollow"/.test((await call("GET", `/r/${id}`)).text);
    expect(await robots()).toBe(false); // live, public, checked, standing
    expect((await call("POST", `/api/v1/records/${id}/lifecycle`, { key: acct.liveKey, body: { operation: "suspend", reason: "Moving hosts." } })).status).toBe(200);
    expect(await robots()).toBe(true); // suspended: not verified now, so not in anyone's results page
    expect((await call("POST", `/api/v1/records/${id}/lifecycle`, { key: acct.liveKey, body: { operation: "reinstate", reason: "Moved." } })).status).toBe(200);
    expect(await robots()).toBe(false);
    expect((await call("POST", `/api/v1/records/${id}/lifecycle`, { key: acct.liveKey, body: { operation: "revoke", reason: "Domain sold." } })).status).toBe(200);
    expect(await robots()).toBe(true);
  });

  it("keeps private live records out of search engines", async () => {
    const acct = await newLiveAccount();
    const rec = await issue(acct.liveKey, { visibility: "private" });
    const page = await call("GET", `/r/${rec.verification_id}`);
    expect(page.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
  });

  it("serves the QR code as SVG and PNG encoding the certificate URL", async () => {
    const { sandboxKey } = await newAccount();
    const rec = await issue(sandboxKey);
    const svg = await call("GET", `/r/${rec.verification_id}/qr`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.text).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const png = await fetch(`${baseUrl()}/r/${rec.verification_id}/qr?format=png`);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await call("GET", "/r/PRS-00000000000000000000/qr")).status).toBe(404);
    expect((await call("GET", "/r/PRS-00000000000000000000")).status).toBe(404);
  });
});

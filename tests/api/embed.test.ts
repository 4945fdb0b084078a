import { createHash, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { baseUrl, call, newLiveAccount, setDns } from "../helpers";
import { verifyWithJwks } from "../signatures";
import { inOneUsageMonth } from "../usage-month";

/**
 * GET /embed.js and its versioned address: small (the 12 KB gzipped budget), cacheable,
 * loadable from any origin, no cookies; and the signed `websites` the badge binds itself to.
 * What the badge shows is proven in Chromium (e2e/embed.spec.ts).
 */
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl()}${path}`, { headers, redirect: "manual" });

describe("the embed script", () => {
  it("is under 12 KB gzipped, JavaScript, loadable cross-origin, cached, without cookies", async () => {
    const res = await get("/embed.js");
    expect(res.status).toBe(200);
    const code = Buffer.from(await res.arrayBuffer());
    expect(gzipSync(code, { level: 9 }).length).toBeLessThan(12 * 1024);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=300/);
    expect(res.headers.get("set-cookie")).toBeNull();
    // No eval or HTML parsing, so it runs under a strict CSP and Trusted Types.
    expect(code.toString()).not.toMatch(/\beval\(|new Function\(|innerHTML|outerHTML|insertAdjacentHTML|document\.write/);

    const etag = res.headers.get("etag")!;
    const again = await get("/embed.js", { "If-None-Match": etag });
    expect(again.status).toBe(304);
  });

  it("is the same bytes under its versioned address, immutable, with the integrity value the portal shows", async () => {
    const res = await get("/embed.js");
    const code = Buffer.from(await res.arrayBuffer());
    const version = createHash("sha256").update(code).digest("hex").slice(0, 16);
    expect(res.headers.get("link")).toBe(`</embed/${version}.js>; rel="canonical"`);
    const pinned = await get(`/embed/${version}.js`);
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await pinned.arrayBuffer()).equals(code)).toBe(true);

    const other = await get("/embed/0123456789abcdef.js");
    expect(other.status).toBe(302);
    expect(other.headers.get("location")).toBe("/embed.js");
    expect((await get("/embed/not-a-version")).status).toBe(302);
    expect((await get("/embed/%00%ff.js")).status).toBe(400); // odd bytes in a path: a clear 4xx, never a 500
  });

  it("is loaded by nothing that meters: the status it reads is free and cross-origin", async () => {
    await inOneUsageMonth(async () => {
      // A live account, whose records are metered: the issue below counts, the badge's reads must not.
      const a = await newLiveAccount();
      const r = await call("POST", "/api/v1/records", {
        key: a.liveKey, body: { subject: "Acme", claim_type: "company_status", claim: "Acme is active.", visibility: "public" },
      });
      expect(r.status, r.text).toBe(201);
      const before = (await call("GET", "/api/v1/usage", { key: a.liveKey })).body;
      expect(before.live_records.used).toBe(1);
      for (let i = 0; i < 3; i++) {
        const st = await fetch(`${baseUrl()}/api/v1/records/${r.body.verification_id}/status`, { headers: { Origin: "https://shop.example" } });
        expect(st.status).toBe(200);
        expect(st.headers.get("access-control-allow-origin")).toBe("*");
      }
      const keys = await fetch(`${baseUrl()}/.well-known/jwks.json`, { headers: { Origin: "https://shop.example" } });
      expect(keys.headers.get("access-control-allow-origin")).toBe("*");
      const missing = await fetch(`${baseUrl()}/api/v1/records/PRS-00000000000000000000/status`, { headers: { Origin: "https://shop.example" } });
      expect(missing.status).toBe(404);
      expect(missing.headers.get("access-control-allow-origin")).toBe("*");
      expect((await call("GET", "/api/v1/usage", { key: a.liveKey })).body).toEqual(before);
    });
  });
});

describe("the websites a record speaks for", () => {
  it("are signed in its status: the proved domain for a domain record, none for a company record", async () => {
    const live = await newLiveAccount();
    const domain = `Embed-${randomUUID().slice(0, 8)}.example.com`;
    const c = (await call("POST", "/api/v1/domain-challenges", { key: live.liveKey, body: { domain } })).body;
    setDns(c.txt_name, [c.txt_value]);
    const d = await call("POST", "/api/v1/records", {
      key: live.liveKey, body: { subject: domain, claim_type: "domain_ownership", claim: "Controls it.", visibility: "public", evidence: { challenge_id: c.id } },
    });
    expect(d.status, d.text).toBe(201);
    expect(d.body.websites).toEqual([domain.toLowerCase()]);
    const { status_signature, ...signed } = (await call("GET", `/api/v1/records/${d.body.verification_id}/status`)).body;
    expect(signed.websites).toEqual([domain.toLowerCase()]);
    expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);

    const company = await call("POST", "/api/v1/records", {
      key: live.liveKey, body: { subject: "Acme", claim_type: "company_status", claim: "Acme is active.", visibility: "public" },
    });
    expect((await call("GET", `/api/v1/records/${company.body.verification_id}/status`)).body.websites).toEqual([]);
  });
});

import { randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, inject, it } from "vitest";
import { admin, baseUrl, call, newAccount, newLiveAccount, setDns, until, untilPast, withShortExpiry, type Res } from "../helpers";
import { createDatabase } from "../db-template";
import { startServerOnFreePort, stopStartedServers, type StartedServer } from "../server";
import { verifyWithJwks } from "../signatures";

/**
 * GET /api/v1/lookup over HTTP (CONTRACT "Lookup"): exact matches after normalisation
 * against live, public, active records only, signed answers (no_match too) checked with
 * jose + canonicalize, and the per-address limit. The test server trusts X-Forwarded-For
 * (TRUST_PROXY=1): every call here comes from an address of its own unless a test names one,
 * so no test spends another's allowance.
 */

const uniq = () => `t${Math.random().toString(36).slice(2, 10)}`;
const someAddress = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

function lookup(q: string | null, opts: { type?: string; from?: string; extra?: string } = {}): Promise<Res> {
  const params = new URLSearchParams();
  if (q !== null) params.set("q", q);
  if (opts.type) params.set("type", opts.type);
  const query = params.toString() + (opts.extra ?? "");
  return call("GET", `/api/v1/lookup${query ? `?${query}` : ""}`, { headers: { "X-Forwarded-For": opts.from ?? someAddress() } });
}

/** The answer's signature, checked as the contract says: drop `signature`, RFC 8785, Ed25519 with the JWKS key. */
async function expectSigned(body: Record<string, any>) {
  const { signature, ...rest } = body;
  expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
  expect(await verifyWithJwks(rest, signature, rest.signing_key_id)).toBe(true);
  expect(await verifyWithJwks({ ...rest, result: rest.result === "no_match" ? "verified" : "no_match" }, signature, rest.signing_key_id)).toBe(false);
}

/** A live, public domain_ownership record of `domain` (TXT published on the test's DNS server). */
async function proveDomain(key: string, domain: string, over: Record<string, unknown> = {}) {
  const c = await call("POST", "/api/v1/domain-challenges", { key, body: { domain } });
  expect(c.status, c.text).toBe(201);
  setDns(c.body.txt_name, [c.body.txt_value]);
  return call("POST", "/api/v1/records", {
    key, body: { subject: domain, claim_type: "domain_ownership", claim: `Controls the DNS of ${domain}.`, evidence: { challenge_id: c.body.id }, visibility: "public", ...over },
  });
}

async function proveWallet(key: string, network = "ethereum", signer = privateKeyToAccount(generatePrivateKey())) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const c = await call("POST", "/api/v1/wallet-challenges", { key, body: { address: acct.address, network } });
  expect(c.status, c.text).toBe(201);
  const signature = await (network === "ethereum" ? acct : signer).signMessage({ message: c.body.message });
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: acct.address, claim_type: "wallet_ownership", claim: `Controls ${acct.address}.`, evidence: { challenge_id: c.body.id, signature }, visibility: "public" },
  });
  return { address: acct.address, r };
}

const move = (key: string, id: string, operation: string, extra: Record<string, unknown> = {}) =>
  call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation, reason: `test ${operation}`, ...extra } });

describe("lookup: matches", () => {
  it("finds a live public domain record by its website in any spelling, signed, with who made the statement", async () => {
    const live = await newLiveAccount();
    await admin("organisation", "verify", "--account", live.accountId, "--legal-name", "Acme Holidays Ltd");
    const domain = `${uniq()}.example.com`;
    const rec = await proveDomain(live.liveKey, domain);
    expect(rec.status, rec.text).toBe(201);
    const id = rec.body.verification_id;
    for (const q of [domain, domain.toUpperCase(), `www.${domain}`, `https://www.${domain.toUpperCase()}/`, `http://${domain}:8080`, ` ${domain}. `]) {
      const r = await lookup(q);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.body).toMatchObject({ query: q, normalized: domain, type: "website", result: "verified" });
      expect(r.body.matches).toEqual([{
        verification_id: id, claim_type: "domain_ownership", subject: domain, status: "active", evidence_level: "source_verified",
        matched_field: "subject", certificate_url: rec.body.certificate_url,
        account: {
          name: "Acme Holidays Ltd", name_verified: true, verified_domains: [domain],
          organisation: expect.objectContaining({ legal_name: "Acme Holidays Ltd", status: "verified", basis: "documents", domains: [] }),
        },
      }]);
      expect(Object.keys(r.body).sort()).toEqual(["as_of", "matches", "normalized", "query", "result", "signature", "signing_key_id", "taken_down", "type"]);
      await expectSigned(r.body);
    }
    // With the type named, a URL with a path is still the website; as a listing link it is another value.
    expect((await lookup(`https://${domain}/about`, { type: "website" })).body).toMatchObject({ type: "website", result: "verified" });
    const asListing = await lookup(`https://${domain}/about`);
    expect(asListing.body).toMatchObject({ type: "listing_url", normalized: `https://${domain}/about`, result: "no_match", matches: [] });
    // Another subdomain is another website.
    expect((await lookup(`shop.${domain}`)).body.result).toBe("no_match");
  });

  it("finds a live public wallet record by its address in any case", async () => {
    const live = await newLiveAccount();
    const { address, r: rec } = await proveWallet(live.liveKey);
    expect(rec.status, rec.text).toBe(201);
    for (const q of [address, address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`]) {
      const r = await lookup(q);
      expect(r.body, q).toMatchObject({ normalized: address.toLowerCase(), type: "wallet", result: "checked" });
      expect(r.body.matches.map((m: any) => [m.verification_id, m.claim_type, m.subject, m.matched_field]))
        .toEqual([[rec.body.verification_id, "wallet_ownership", address, "subject"]]);
      await expectSigned(r.body);
    }
    expect((await lookup(address, { type: "wallet" })).body.result).toBe("checked");
  });

  it("says verified only when the account behind a checked match is a verified organisation; checked otherwise; attested for statements", async () => {
    const live = await newLiveAccount();
    expect((await call("PATCH", "/api/v1/account", { key: live.liveKey, body: { name: "Coinbase, Inc." } })).status).toBe(200);
    const domain = `${uniq()}.example.com`;
    expect((await proveDomain(live.liveKey, domain)).status).toBe(201);
    const self = await lookup(domain);
    expect(self.body).toMatchObject({ result: "checked" });
    expect(self.body.matches[0].account).toMatchObject({ name: "Coinbase, Inc.", name_verified: false, organisation: null });
    await expectSigned(self.body);
    await admin("organisation", "verify", "--account", live.accountId, "--legal-name", "Coinbase, Inc.", "--domains", domain);
    await until("the organisation to count", async () => (await lookup(domain)).body.result === "verified", 5_000);
  });

  it("lists every operator that has the value on record, strongest evidence then newest first", async () => {
    const [a, b] = [await newLiveAccount(), await newLiveAccount()];
    const domain = `${uniq()}.example.org`;
    const first = await proveDomain(a.liveKey, domain);
    const second = await proveDomain(b.liveKey, domain);
    const r = await lookup(domain);
    expect(r.body.result).toBe("checked");
    expect(r.body.matches.map((m: any) => m.verification_id)).toEqual([second.body.verification_id, first.body.verification_id]);
  });

  it("answers a signed no_match, and tries a bare token as a licence number and as a handle", async () => {
    const r = await lookup(`${uniq()}.example.net`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: "website", result: "no_match", matches: [] });
    await expectSigned(r.body);
    const token = await lookup("hut 2023 45");
    expect(token.body).toMatchObject({ type: "licence_number", normalized: "HUT202345", result: "no_match" });
    const both = await lookup("acme_travel");
    expect(both.body).toMatchObject({ type: "licence_number", normalized: "ACME_TRAVEL", result: "no_match" });
    expect((await lookup("@Acme_Travel")).body).toMatchObject({ type: "social_handle", normalized: "acme_travel" });
    expect((await lookup("https://x.com/Acme_Travel?s=20")).body).toMatchObject({ type: "social_handle", normalized: "acme_travel" });
    expect((await lookup("de89 3704 0044 0532 0130 00")).body).toMatchObject({ type: "iban", normalized: "DE89370400440532013000", result: "no_match" });
    expect((await lookup("https://www.Airbnb.com/rooms/42/#photos")).body).toMatchObject({ type: "listing_url", normalized: "https://airbnb.com/rooms/42" });
    await expectSigned(both.body);
  });
});

describe("lookup: never a record that is not live, public and active", () => {
  it("sandbox, private, pending, suspended, revoked, expired and superseded records are never found", async () => {
    const live = await newLiveAccount();
    const domains: Record<string, string> = {};
    const fresh = (label: string) => (domains[label] = `${label}-${uniq()}.example.com`);

    // sandbox: never public, never found (even when it asks to be public)
    const { sandboxKey } = await newAccount();
    expect((await proveDomain(sandboxKey, fresh("sandbox"))).body).toMatchObject({ status: "active", visibility: "private" });
    // private live record
    expect((await proveDomain(live.liveKey, fresh("private"), { visibility: "private" })).status).toBe(201);
    // pending review: the resolver fails, a reviewer would decide
    const c = await call("POST", "/api/v1/domain-challenges", { key: live.liveKey, body: { domain: fresh("pending") } });
    setDns(c.body.txt_name, "servfail");
    const pending = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: { subject: domains.pending, claim_type: "domain_ownership", claim: "Pending.", evidence: { challenge_id: c.body.id }, visibility: "public" },
    });
    expect(pending.body.status).toBe("pending_review");
    // suspended, revoked, superseded: found while active, then no more
    const moved: [string, string, Record<string, unknown>?][] = [["suspended", "suspend"], ["revoked", "revoke"], ["superseded", "supersede"]];
    for (const [label, op] of moved) {
      const rec = await proveDomain(live.liveKey, fresh(label));
      expect((await lookup(domains[label]!)).body.result, label).toBe("checked");
      const extra = op === "supersede" ? { superseded_by: (await proveDomain(live.liveKey, `next-${uniq()}.example.com`)).body.verification_id } : {};
      expect((await move(live.liveKey, rec.body.verification_id, op, extra)).status, label).toBe(200);
    }
    // expired: found until its expires_at passes, then at once no more (before the sweep persists it)
    const { res: expiring, expiresAt } = await withShortExpiry((at) => proveDomain(live.liveKey, fresh("expired"), { expires_at: at }), 4000);
    expect(expiring.status, expiring.text).toBe(201);
    expect((await lookup(domains.expired!)).body.result).toBe("checked");
    await untilPast(expiresAt);

    for (const [label, domain] of Object.entries(domains)) {
      const r = await lookup(domain);
      expect(r.body, label).toMatchObject({ result: "no_match", matches: [] });
      await expectSigned(r.body);
    }
    // A suspended record reinstated is found again.
    const back = await proveDomain(live.liveKey, fresh("reinstated"));
    await move(live.liveKey, back.body.verification_id, "suspend");
    expect((await lookup(domains.reinstated!)).body.result).toBe("no_match");
    await move(live.liveKey, back.body.verification_id, "reinstate");
    expect((await lookup(domains.reinstated!)).body.result).toBe("checked");
  });

  it("a wallet proved only in the sandbox, or pending review, is not found", async () => {
    const { sandboxKey } = await newAccount();
    const sandbox = await proveWallet(sandboxKey);
    expect(sandbox.r.status).toBe(201);
    expect((await lookup(sandbox.address)).body.result).toBe("no_match");
    const live = await newLiveAccount();
    // Signed by another key on bsc, whose RPC never answers: a smart account only the chain could confirm → review.
    const pending = await proveWallet(live.liveKey, "bsc");
    expect(pending.r.body.status).toBe("pending_review");
    expect((await lookup(pending.address)).body.result).toBe("no_match");
  });
});

describe("lookup: bad input → 422 with stable codes", () => {
  it.each([
    ["no q", null, {}, "missing_field", "q"],
    ["an empty q", "", {}, "missing_field", "q"],
    ["a blank q", "   ", {}, "missing_field", "q"],
    ["a q over 500 characters", "a".repeat(501), {}, "too_long", "q"],
    ["control characters", "acme\u0007", {}, "invalid_format", "q"],
    ["a zero-width space", "acme\u200Bhotel.com", {}, "invalid_format", "q"],
    ["an unknown type", "acme", { type: "email" }, "invalid_value", "type"],
    ["an unknown parameter", "acme", { extra: "&colour=red" }, "unknown_field", "colour"],
    ["q twice", "acme", { extra: "&q=other" }, "invalid_format", "q"],
    ["bytes that are not UTF-8", null, { extra: "q=%ff%fe" }, "invalid_value", "q"],
    ["an IBAN with wrong check digits", "DE89 3704 0044 0532 0130 01", {}, "invalid_iban", "q"],
    ["an IBAN type that is none", "acme", { type: "iban" }, "invalid_iban", "q"],
    ["a 0x address of the wrong length", "0x1234", {}, "invalid_address", "q"],
    ["a wallet type that is none", "acme", { type: "wallet" }, "invalid_address", "q"],
    ["a website type that is none", "localhost", { type: "website" }, "invalid_domain", "q"],
    ["another scheme", "ftp://example.com/x", {}, "invalid_format", "q"],
    ["text of no kind", "hello world!", {}, "invalid_format", "q"],
  ] as const)("%s", async (_label, q, opts, code, param) => {
    const r = await lookup(q, opts);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ type: "invalid_request_error", code, param });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("ratelimit-limit")).toBe("30");
  });

  it("other methods are 405, and the preflight allows any origin", async () => {
    const r = await call("POST", "/api/v1/lookup?q=acme", { body: {} });
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe("method_not_allowed");
    const pre = await fetch(`${baseUrl()}/api/v1/lookup`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-expose-headers")).toMatch(/RateLimit-Remaining.*Retry-After/);
  });
});

describe("lookup: 30 requests per minute per client address", () => {
  it("answers RateLimit-* on every answer, 429 with Retry-After from the 31st, and other addresses are not affected", async () => {
    const from = someAddress();
    for (let i = 1; i <= 30; i++) {
      // Bad requests count too.
      const r = await lookup(i % 10 === 0 ? "" : `${uniq()}.example.com`, { from });
      expect(r.status, `request ${i}`).toBe(i % 10 === 0 ? 422 : 200);
      expect(r.headers.get("ratelimit-limit")).toBe("30");
      expect(r.headers.get("ratelimit-remaining"), `request ${i}`).toBe(String(30 - i));
      expect(Number(r.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
    }
    const limited = await lookup("example.com", { from });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(limited.body.error.request_id).toBe(limited.headers.get("request-id"));
    const retry = Number(limited.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect((await lookup("example.com", { from })).status).toBe(429);
    expect((await lookup("example.com")).status).toBe(200);
  });
});

/**
 * Several instances share the limit through PostgreSQL (lib/http/shared-rate-limiter.ts):
 * two server processes of their own on a fresh database, requests from one address spread
 * over both. The embedded database serves one process only, so there is nothing to share.
 */
describe.skipIf(!process.env.DATABASE_URL)("lookup: the limit holds across two server processes on one PostgreSQL (skipped on the embedded database: one process only)", () => {
  const dbName = `prs_lookup_${Date.now()}_${process.pid}`;
  const adminUrl = process.env.DATABASE_URL!;
  const dirs: string[] = [];
  const sqlAdmin = () => postgres(adminUrl, { max: 1, onnotice: () => {} });

  afterAll(async () => {
    await stopStartedServers();
    const sql = sqlAdmin();
    await sql.unsafe(`drop database if exists ${dbName} with (force)`);
    await sql.end();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it("30 requests a minute from one address in all, whichever instance answers", async () => {
    await createDatabase(adminUrl, dbName);
    const databaseUrl = adminUrl.replace(/\/[^/?]+(\?|$)/, `/${dbName}$1`);
    const start = (): Promise<StartedServer> => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-lookup-"));
      dirs.push(dataDir);
      return startServerOnFreePort((port) => ({
        ...inject("serverEnv"), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        WEBHOOK_WORKER: "off",
      }), path.join(dataDir, "server.log"));
    };
    const servers = await Promise.all([start(), start()]);
    const from = someAddress();
    const ask = (s: StartedServer) => fetch(`${s.baseUrl}/api/v1/lookup?q=example.com`, { headers: { "X-Forwarded-For": from } });
    for (let i = 1; i <= 30; i++) {
      const r = await ask(servers[i % 2]!);
      expect(r.status, `request ${i}`).toBe(200);
      expect(r.headers.get("ratelimit-remaining"), `request ${i}`).toBe(String(30 - i));
    }
    for (const s of servers) {
      const r = await ask(s);
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    }
  }, 180_000);
});

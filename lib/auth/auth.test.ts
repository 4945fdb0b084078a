import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRateLimiter, clientAddress } from "@/lib/http/rate-limit";
import { signInSchema, signUpSchema } from "./credentials";
import { checkPassword, hashPassword, passwordCost, verifyPassword } from "./password";

/** A hash as the service made them before N = 2^17: `scrypt$32768$8$1$…`, made here with node's scrypt directly. */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize("NFKC"), salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 32768, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

describe("password hashing", () => {
  it("stores a self-describing scrypt string at N = 2^17, r = 8, p = 1 and verifies it", async () => {
    const h = await hashPassword("correct horse battery");
    expect(h).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(passwordCost(h)).toEqual({ N: 131072, r: 8, p: 1 });
    expect(await verifyPassword("correct horse battery", h)).toBe(true);
    expect(await verifyPassword("correct horse batterY", h)).toBe(false);
    expect(await checkPassword("correct horse battery", h)).toEqual({ ok: true, upgradedHash: null }); // nothing to upgrade
    expect(await hashPassword("correct horse battery")).not.toBe(h); // fresh salt
  });
  it("still verifies hashes made at N = 2^15, and hands back a fresh one at 2^17 for the same password", async () => {
    const old = legacyHash("correct horse battery");
    const r = await checkPassword("correct horse battery", old);
    expect(r.ok).toBe(true);
    const upgraded = r.ok ? r.upgradedHash : null;
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await checkPassword("correct horse battery", upgraded)).toEqual({ ok: true, upgradedHash: null });
    expect(await verifyPassword("correct horse batterY", upgraded)).toBe(false);
  });
  it("never offers an upgrade for a wrong password", async () => {
    const old = legacyHash("correct horse battery");
    for (const wrong of ["correct horse batterY", "", "x".repeat(200)]) expect(await checkPassword(wrong, old)).toEqual({ ok: false });
  });
  it("never matches (or throws on) missing or malformed hashes", async () => {
    for (const bad of [null, undefined, "", "scrypt$1$8$1$aa$bb", "bcrypt$x", "scrypt$32768$8$1$$", "scrypt$abc$8$1$aaaa$bbbb"]) {
      expect(await checkPassword("whatever123", bad)).toEqual({ ok: false });
    }
  });
});

describe("credential validation", () => {
  it("normalises email, requires 10+ character passwords", () => {
    expect(signUpSchema.parse({ email: "  You@Example.COM ", password: "0123456789" }).email).toBe("you@example.com");
    expect(signUpSchema.safeParse({ email: "you@example.com", password: "012345678" }).success).toBe(false);
    expect(signUpSchema.safeParse({ email: "nope", password: "0123456789" }).success).toBe(false);
    expect(signUpSchema.safeParse({ email: 5, password: null }).success).toBe(false);
    expect(signUpSchema.safeParse({ email: "a@b.co", password: "x".repeat(201) }).success).toBe(false);
    expect(signInSchema.safeParse({ email: "a@b.co", password: "short" }).success).toBe(true);
  });
});

describe("rate limiter", () => {
  it("allows the limit per window, then refuses with a retry time", () => {
    const rl = memoryRateLimiter({ limit: 3, windowMs: 60_000 });
    const t = 1_000_000;
    expect([1, 2, 3].map(() => rl.hit("a", t).ok)).toEqual([true, true, true]);
    const r = rl.hit("a", t + 10_000);
    expect(r).toMatchObject({ ok: false, remaining: 0, retryAfterSeconds: 50 });
    expect(rl.hit("b", t).ok).toBe(true);
    expect(rl.hit("a", t + 60_000).ok).toBe(true);
  });
  it("bounds its memory: past maxKeys live windows, the oldest keys are forgotten", () => {
    // limit 1, so a key it still remembers is refused on its next hit, and a forgotten one
    // starts afresh. A refused hit adds no entry; a fresh one adds one (evicting the oldest).
    const rl = memoryRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 10 });
    for (let i = 0; i < 100; i++) expect(rl.hit(`k${i}`, 1).ok).toBe(true);
    // The 10 newest are remembered (all windows still live)…
    for (let i = 90; i < 100; i++) expect(rl.hit(`k${i}`, 2).ok, `k${i}`).toBe(false);
    // …and none of the 90 older ones: each starts a new window, pushing out the oldest entry.
    for (let i = 0; i < 90; i++) expect(rl.hit(`k${i}`, 3).ok, `k${i}`).toBe(true);
    // Now exactly k80..k89 are held: k79 and earlier were pushed out again, k90.. too.
    for (let i = 80; i < 90; i++) expect(rl.hit(`k${i}`, 4).ok, `k${i}`).toBe(false);
    expect(rl.hit("k95", 5).ok).toBe(true);
  });
  it("takes the nearest proxy's X-Forwarded-For entry", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.1.1.1, 10.0.0.2" }))).toBe("10.0.0.2");
    expect(clientAddress({ "x-real-ip": "2.2.2.2" })).toBe("2.2.2.2");
    expect(clientAddress({})).toBe("unknown");
  });
  it("counts an IPv6 client as its /64 and an IPv4-mapped address as IPv4", () => {
    const a = clientAddress({ "x-forwarded-for": "2001:db8:1:2:aaaa:bbbb:cccc:dddd" });
    expect(a).toBe("2001:db8:1:2::/64");
    expect(clientAddress({ "x-forwarded-for": "2001:0db8:0001:0002::1" })).toBe(a); // same network, other spelling
    expect(clientAddress({ "x-forwarded-for": "2001:db8:1:3::1" })).not.toBe(a); // the next /64
    expect(clientAddress({ "x-forwarded-for": "::ffff:203.0.113.7" })).toBe("203.0.113.7");
    expect(clientAddress({ "x-forwarded-for": "[2001:db8:1:2::9]" })).toBe(a);
    expect(clientAddress({ "x-forwarded-for": "not-an-address" })).toBe("not-an-address");
  });
});

describe("confirmation token", () => {
  const saved = process.env.NEXTAUTH_SECRET;
  let mod: typeof import("./confirm-token");
  beforeAll(async () => {
    process.env.NEXTAUTH_SECRET = "test-secret-test-secret-test-secret-42";
    mod = await import("./confirm-token");
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.NEXTAUTH_SECRET;
    else process.env.NEXTAUTH_SECRET = saved;
  });

  it("round-trips, expires, and refuses tampering", () => {
    const now = Date.UTC(2026, 0, 1);
    const t = mod.makeConfirmToken("acct_abc123", now);
    expect(mod.checkConfirmToken(t, now)).toEqual({ ok: true, accountId: "acct_abc123" });
    expect(mod.checkConfirmToken(t, now + (mod.CONFIRM_TTL_SECONDS + 1) * 1000)).toEqual({ ok: false, reason: "expired" });
    const [id, exp, sig] = t.split(".");
    expect(mod.checkConfirmToken(`acct_abc124.${exp}.${sig}`, now).ok).toBe(false);
    expect(mod.checkConfirmToken(`${id}.${Number(exp) + 1000}.${sig}`, now).ok).toBe(false);
    for (const bad of [undefined, "", "x", `${t}x`, "acct_a.1.<script>"]) expect(mod.checkConfirmToken(bad, now).ok).toBe(false);
  });
});

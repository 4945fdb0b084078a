import fs from "node:fs";
import path from "node:path";
import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataLayerTest, onPostgres } from "./setup";

const { dir, db } = await dataLayerTest({ env: { SMTP_URL: undefined } }); // mail goes to DATA_DIR/mail, where this test reads it
const { accounts, loginTokens } = await import("@/drizzle/schema");
const { createAccount } = await import("@/lib/accounts/create-account");
const { hashPassword } = await import("@/lib/auth/password");
const tokens = await import("@/lib/auth/login-token");
const { redeemMagicLink, resetPassword } = await import("@/lib/auth/redeem-login-link");
const { sendLoginLink } = await import("@/lib/auth/send-login-link");

const email = () => `lt-${randomBytes(5).toString("hex")}@example.test`;
const sha256hex = (s: string) => createHash("sha256").update(s).digest("hex");
const account = async (opts: { password?: string } = {}) => {
  const a = await createAccount(db, {
    email: email(), ...(opts.password ? { passwordHash: await hashPassword(opts.password) } : {}),
  });
  return a;
};
const row = async (token: string) => (await db.select().from(loginTokens).where(eq(loginTokens.tokenHash, sha256hex(token))))[0];
const accountRow = async (id: string) => (await db.select().from(accounts).where(eq(accounts.id, id)))[0]!;

/** Check a stored `scrypt$N$r$p$salt$hash` with node's scrypt directly, not the service's verifier. */
function scryptMatches(password: string, stored: string | null): boolean {
  const [alg, n, r, p, salt, hash] = (stored ?? "").split("$");
  if (alg !== "scrypt") return false;
  const expected = Buffer.from(hash!, "base64url");
  const actual = scryptSync(password.normalize("NFKC"), Buffer.from(salt!, "base64url"), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

describe("login tokens", () => {
  it("are 32 random bytes; only their SHA-256 is stored, with the purpose's lifetime", async () => {
    const a = await account();
    const now = new Date();
    const t = await tokens.createLoginToken(db, a.accountId, "magic_link", now);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(t, "base64url")).toHaveLength(32);
    const stored = await row(t);
    expect(stored).toMatchObject({ accountId: a.accountId, purpose: "magic_link", usedAt: null });
    expect(stored!.expiresAt.getTime() - now.getTime()).toBe(15 * 60_000);
    const r = await tokens.createLoginToken(db, a.accountId, "password_reset", now);
    expect((await row(r))!.expiresAt.getTime() - now.getTime()).toBe(3600_000);
    const all = await db.select().from(loginTokens).where(eq(loginTokens.accountId, a.accountId));
    expect(JSON.stringify(all)).not.toContain(t);
  });

  it("work once", async () => {
    const a = await account();
    const t = await tokens.createLoginToken(db, a.accountId, "magic_link");
    expect(await tokens.peekLoginToken(db, t, "magic_link")).toEqual({ ok: true, accountId: a.accountId });
    expect(await tokens.peekLoginToken(db, t, "magic_link")).toEqual({ ok: true, accountId: a.accountId }); // looking is free
    expect(await tokens.consumeLoginToken(db, t, "magic_link")).toEqual({ ok: true, accountId: a.accountId });
    expect((await row(t))!.usedAt).toBeInstanceOf(Date);
    expect(await tokens.consumeLoginToken(db, t, "magic_link")).toEqual({ ok: false, reason: "used" });
    expect(await tokens.peekLoginToken(db, t, "magic_link")).toEqual({ ok: false, reason: "used" });
  });

  it("expire", async () => {
    const a = await account();
    const issued = new Date(Date.now() - 16 * 60_000);
    const t = await tokens.createLoginToken(db, a.accountId, "magic_link", issued);
    expect(await tokens.consumeLoginToken(db, t, "magic_link")).toEqual({ ok: false, reason: "expired" });
    expect((await row(t))!.usedAt).toBeNull();
    // The boundary: still good a millisecond before expiry, not at it.
    const fresh = await tokens.createLoginToken(db, a.accountId, "password_reset", issued);
    const expiry = issued.getTime() + 3600_000;
    expect(await tokens.peekLoginToken(db, fresh, "password_reset", new Date(expiry))).toEqual({ ok: false, reason: "expired" });
    expect(await tokens.consumeLoginToken(db, fresh, "password_reset", new Date(expiry))).toEqual({ ok: false, reason: "expired" });
    expect(await tokens.consumeLoginToken(db, fresh, "password_reset", new Date(expiry - 1))).toEqual({ ok: true, accountId: a.accountId });
  });

  it("of an account are dropped a day after they expired, when it gets a new one", async () => {
    const a = await account();
    const old = await tokens.createLoginToken(db, a.accountId, "magic_link", new Date(Date.now() - 25 * 3600_000 - 15 * 60_000));
    const recent = await tokens.createLoginToken(db, a.accountId, "magic_link", new Date(Date.now() - 3 * 3600_000));
    const other = await account();
    const othersOld = await tokens.createLoginToken(db, other.accountId, "magic_link", new Date(Date.now() - 3 * 86_400_000));
    expect(await row(old)).toBeDefined();
    await tokens.createLoginToken(db, a.accountId, "password_reset");
    expect(await row(old)).toBeUndefined();
    expect(await tokens.peekLoginToken(db, recent, "magic_link")).toEqual({ ok: false, reason: "expired" });
    expect(await row(othersOld)).toBeDefined();
  });

  it("of one purpose do nothing for the other, and stay usable", async () => {
    const a = await account();
    const link = await tokens.createLoginToken(db, a.accountId, "magic_link");
    const reset = await tokens.createLoginToken(db, a.accountId, "password_reset");
    expect(await tokens.consumeLoginToken(db, link, "password_reset")).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.consumeLoginToken(db, reset, "magic_link")).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.peekLoginToken(db, link, "password_reset")).toEqual({ ok: false, reason: "invalid" });
    expect(await resetPassword(db, link, "a new password 1")).toEqual({ ok: false, reason: "invalid" });
    expect((await accountRow(a.accountId)).passwordHash).toBeNull();
    expect(await tokens.consumeLoginToken(db, link, "magic_link")).toMatchObject({ ok: true });
    expect(await tokens.consumeLoginToken(db, reset, "password_reset")).toMatchObject({ ok: true });
  });

  it("refuse malformed and unknown input without throwing", async () => {
    for (const bad of [undefined, null, 42, {}, "", "x", "A".repeat(42), "A".repeat(44), `${"A".repeat(42)}=`, "' or 1=1 --".padEnd(43, "x")]) {
      expect(await tokens.consumeLoginToken(db, bad, "magic_link")).toEqual({ ok: false, reason: "invalid" });
      expect(await tokens.peekLoginToken(db, bad, "magic_link")).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await tokens.consumeLoginToken(db, randomBytes(32).toString("base64url"), "magic_link")).toEqual({ ok: false, reason: "invalid" });
  });

  // The races below need PostgreSQL: PGlite's one connection runs the consumers' UPDATEs one
  // after another, so there they would only repeat "work once" and "signs in once" (which
  // state the same rule in sequence on both databases).
  it.runIf(onPostgres)("race: of many concurrent consumers exactly one wins", async () => {
    for (let round = 0; round < 5; round++) {
      const a = await account();
      const t = await tokens.createLoginToken(db, a.accountId, "magic_link");
      const results = await Promise.all(Array.from({ length: 8 }, () => tokens.consumeLoginToken(db, t, "magic_link")));
      expect(results.filter((r) => r.ok)).toEqual([{ ok: true, accountId: a.accountId }]);
      expect(results.filter((r) => !r.ok)).toEqual(Array(7).fill({ ok: false, reason: "used" }));
    }
  });

  it.runIf(onPostgres)("race: two concurrent magic-link sign-ins, one session", async () => {
    const a = await account();
    const t = await tokens.createLoginToken(db, a.accountId, "magic_link");
    const [x, y] = await Promise.all([redeemMagicLink(db, t), redeemMagicLink(db, t)]);
    expect([x.ok, y.ok].sort()).toEqual([false, true]);
    expect([x, y].find((r) => !r.ok)).toEqual({ ok: false, reason: "used" });
  });
});

describe("magic link", () => {
  it("signs in once and confirms an unconfirmed address", async () => {
    const a = await account({ password: "correct horse battery" });
    expect((await accountRow(a.accountId)).emailConfirmedAt).toBeNull();
    const t = await tokens.createLoginToken(db, a.accountId, "magic_link");
    const r = await redeemMagicLink(db, t);
    expect(r.ok && r.account.id).toBe(a.accountId);
    const confirmed = (await accountRow(a.accountId)).emailConfirmedAt;
    expect(confirmed).toBeInstanceOf(Date);
    expect(await redeemMagicLink(db, t)).toEqual({ ok: false, reason: "used" });
    // An already confirmed address keeps its original confirmation time.
    const t2 = await tokens.createLoginToken(db, a.accountId, "magic_link");
    expect((await redeemMagicLink(db, t2)).ok).toBe(true);
    expect((await accountRow(a.accountId)).emailConfirmedAt).toEqual(confirmed);
  });

  it("an expired link neither signs in nor confirms", async () => {
    const a = await account();
    const t = await tokens.createLoginToken(db, a.accountId, "magic_link", new Date(Date.now() - 3600_000));
    expect(await redeemMagicLink(db, t)).toEqual({ ok: false, reason: "expired" });
    expect((await accountRow(a.accountId)).emailConfirmedAt).toBeNull();
  });
});

describe("password reset", () => {
  it("sets a new scrypt hash, voids the account's other links, and moves the session epoch", async () => {
    const a = await account({ password: "old password 123" });
    const before = await accountRow(a.accountId);
    const pendingLink = await tokens.createLoginToken(db, a.accountId, "magic_link");
    const olderReset = await tokens.createLoginToken(db, a.accountId, "password_reset");
    const t = await tokens.createLoginToken(db, a.accountId, "password_reset");
    const other = await account();
    const othersLink = await tokens.createLoginToken(db, other.accountId, "magic_link");

    const r = await resetPassword(db, t, "new password 456");
    expect(r.ok).toBe(true);
    const after = await accountRow(a.accountId);
    expect(after.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(scryptMatches("new password 456", after.passwordHash)).toBe(true);
    expect(scryptMatches("old password 123", after.passwordHash)).toBe(false);
    expect(after.emailConfirmedAt).toBeInstanceOf(Date);
    expect(after.sessionEpoch).toBe(before.sessionEpoch + 1);

    expect(await resetPassword(db, t, "third password 789")).toEqual({ ok: false, reason: "used" });
    expect(await resetPassword(db, olderReset, "third password 789")).toEqual({ ok: false, reason: "used" });
    expect(await redeemMagicLink(db, pendingLink)).toEqual({ ok: false, reason: "used" });
    expect(scryptMatches("new password 456", (await accountRow(a.accountId)).passwordHash)).toBe(true);
    // Another account's links are untouched.
    expect((await redeemMagicLink(db, othersLink)).ok).toBe(true);
  });

  it("gives an account made without a password (operator CLI) its first one", async () => {
    const a = await account();
    expect((await accountRow(a.accountId)).passwordHash).toBeNull();
    const t = await tokens.createLoginToken(db, a.accountId, "password_reset");
    expect((await resetPassword(db, t, "first password 1")).ok).toBe(true);
    expect(scryptMatches("first password 1", (await accountRow(a.accountId)).passwordHash)).toBe(true);
  });

  it("an expired reset link changes nothing", async () => {
    const a = await account({ password: "old password 123" });
    const before = (await accountRow(a.accountId)).passwordHash;
    const t = await tokens.createLoginToken(db, a.accountId, "password_reset", new Date(Date.now() - 2 * 3600_000));
    expect(await resetPassword(db, t, "new password 456")).toEqual({ ok: false, reason: "expired" });
    expect((await accountRow(a.accountId)).passwordHash).toBe(before);
  });
});

describe("sending links", () => {
  const mails = () => (fs.existsSync(path.join(dir, "mail")) ? fs.readdirSync(path.join(dir, "mail")) : []);

  it("mails a working link to an existing account, with only its hash stored", async () => {
    const a = await account();
    const n = mails().length;
    expect(await sendLoginLink(db, a.email, "magic_link")).toBe(true);
    const file = mails().find((f) => f.includes(a.email))!;
    expect(mails()).toHaveLength(n + 1);
    const text = fs.readFileSync(path.join(dir, "mail", file), "utf8");
    expect(text).toContain(`To: ${a.email}`);
    const token = decodeURIComponent(/\/signin\/link\?token=(\S+)/.exec(text)![1]!);
    expect((await row(token))).toMatchObject({ accountId: a.accountId, purpose: "magic_link", usedAt: null });
    expect((await redeemMagicLink(db, token)).ok).toBe(true);

    expect(await sendLoginLink(db, a.email, "password_reset")).toBe(true);
    const resetMail = mails().filter((f) => f.includes(a.email)).sort().at(-1)!;
    expect(fs.readFileSync(path.join(dir, "mail", resetMail), "utf8")).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]{43}\n/);
  });

  it("does nothing for an unknown address", async () => {
    const n = mails().length;
    const count = (await db.select().from(loginTokens)).length;
    expect(await sendLoginLink(db, email(), "magic_link")).toBe(false);
    expect(mails()).toHaveLength(n);
    expect(await db.select().from(loginTokens)).toHaveLength(count);
  });
});

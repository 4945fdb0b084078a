import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

// On a database of its own: on PostgreSQL the test server's delivery worker would otherwise
// send the attacker's queued delivery, fail (nothing listens) and disable the endpoint, which
// the tests below expect to stay enabled where nothing revoked it.
const { db, keyAnswer } = await dataLayerTest({
  ownDatabase: "hijack",
  env: {
    SMTP_URL: undefined, // the sign-up mail goes to DATA_DIR/mail
    WEBHOOK_ALLOW_INSECURE: "1", // the attacker's endpoint is on loopback
  },
});
const { accounts, apiKeys, loginTokens, mandateKeys, webhookDeliveries, webhooks } = await import("@/drizzle/schema");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { confirmEmail } = await import("@/lib/accounts/manage-account");
const { signUp } = await import("@/lib/auth/signup");
const { verifyPassword } = await import("@/lib/auth/password");
const { createLoginToken } = await import("@/lib/auth/login-token");
const { redeemMagicLink, resetPassword } = await import("@/lib/auth/redeem-login-link");
const { createMandateKey } = await import("@/lib/mandates/manage-mandate-keys");
const { createWebhook, sendTestEvent } = await import("@/lib/webhooks/manage-webhooks");
const { newDeliveryId } = await import("@/lib/ids");

const ATTACKER_PASSWORD = "attacker's own password";
const MANDATE_PUBLIC_KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const accountRow = async (id: string) => (await db.select().from(accounts).where(eq(accounts.id, id)))[0]!;
const keyRow = async (id: string) => (await db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!;


/**
 * Someone signs up with another person's address and a password of their own, and sets the
 * account up before the address is proven: the sign-up sandbox key, a mandate key, a
 * webhook endpoint with a queued delivery, and a password-reset link nobody used.
 */
async function attackerSignsUp() {
  const victim = `victim-${randomBytes(5).toString("hex")}@example.test`;
  const s = await signUp(db, { email: victim, password: ATTACKER_PASSWORD });
  const auth = await authenticateApiKey(db, `Bearer ${s.sandboxKey}`);
  const keyId = `attacker-${randomBytes(5).toString("hex")}`;
  await createMandateKey(db, auth, { key_id: keyId, public_key: MANDATE_PUBLIC_KEY });
  const hook = await createWebhook(db, auth, { url: "http://127.0.0.1:9/attacker" });
  const evt = await sendTestEvent(db, auth, hook.id);
  // No worker runs on this database: the delivery is queued here, as a dispatcher would.
  await db.insert(webhookDeliveries).values({ id: newDeliveryId(), webhookId: hook.id, eventId: evt.id, status: "pending", nextAttemptAt: new Date() });
  const pendingReset = await createLoginToken(db, s.accountId, "password_reset");
  const before = await accountRow(s.accountId);
  return { ...s, victim, mandateKeyId: keyId, webhookId: hook.id, pendingReset, sessionEpoch: before.sessionEpoch };
}

/** Everything the attacker set up before the address was proven no longer works. */
async function expectAttackerLockedOut(a: Awaited<ReturnType<typeof attackerSignsUp>>) {
  const acct = await accountRow(a.accountId);
  expect(acct.emailConfirmedAt).toBeInstanceOf(Date);
  expect(await verifyPassword(ATTACKER_PASSWORD, acct.passwordHash)).toBe(false);
  // The attacker's session carries the old session epoch: it no longer matches.
  expect(acct.sessionEpoch).not.toBe(a.sessionEpoch);
  expect(await keyAnswer(a.sandboxKey)).toBe("api_key_revoked");
  const keys = await db.select().from(apiKeys).where(eq(apiKeys.accountId, a.accountId));
  expect(keys.map((k) => k.revokedAt)).toEqual([acct.emailConfirmedAt]);
  const [mk] = await db.select().from(mandateKeys).where(eq(mandateKeys.keyId, a.mandateKeyId));
  expect(mk!.revokedAt).toEqual(acct.emailConfirmedAt);
  const [wh] = await db.select().from(webhooks).where(eq(webhooks.id, a.webhookId));
  expect(wh).toMatchObject({ status: "disabled", deletedAt: acct.emailConfirmedAt });
  const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, a.webhookId));
  expect(deliveries.map((d) => d.status)).toEqual(["failed"]);
  expect(await resetPassword(db, a.pendingReset, "a takeover password")).toEqual({ ok: false, reason: "used" });
  return acct;
}

describe("pre-account hijack: confirming an address through a mailed sign-in or reset link", () => {
  it("a magic link voids the password set before, every session, key, mandate key and webhook endpoint", async () => {
    const a = await attackerSignsUp();
    const bystander = await attackerSignsUp(); // another account: untouched
    const link = await createLoginToken(db, a.accountId, "magic_link");
    const r = await redeemMagicLink(db, link);
    expect(r.ok && r.account.id).toBe(a.accountId);
    const acct = await expectAttackerLockedOut(a);
    expect(acct.passwordHash).toBeNull(); // the owner sets one through "Forgot password?"

    // The owner's account works from here on: new keys, and later links change nothing.
    const fresh = await createApiKey(db, a.accountId, "sandbox");
    expect(await keyAnswer(fresh.key)).toBe(a.accountId);
    const again = await createLoginToken(db, a.accountId, "magic_link");
    expect((await redeemMagicLink(db, again)).ok).toBe(true);
    expect(await keyAnswer(fresh.key)).toBe(a.accountId);
    expect((await keyRow(fresh.keyId)).revokedAt).toBeNull();

    expect(await keyAnswer(bystander.sandboxKey)).toBe(bystander.accountId);
    expect(await verifyPassword(ATTACKER_PASSWORD, (await accountRow(bystander.accountId)).passwordHash)).toBe(true);
  });

  it("a reset link does the same, with the owner's new password in place of the old one", async () => {
    const a = await attackerSignsUp();
    const link = await createLoginToken(db, a.accountId, "password_reset");
    const r = await resetPassword(db, link, "the owner's new password");
    expect(r.ok).toBe(true);
    const acct = await expectAttackerLockedOut(a);
    expect(await verifyPassword("the owner's new password", acct.passwordHash)).toBe(true);
  });

  it("the sign-up's own confirmation link keeps the account as it was made", async () => {
    const a = await attackerSignsUp();
    expect(await confirmEmail(db, a.accountId)).toBe(true);
    const acct = await accountRow(a.accountId);
    expect(acct.emailConfirmedAt).toBeInstanceOf(Date);
    expect(acct.sessionEpoch).toBe(a.sessionEpoch);
    expect(await verifyPassword(ATTACKER_PASSWORD, acct.passwordHash)).toBe(true);
    expect(await keyAnswer(a.sandboxKey)).toBe(a.accountId);
    const [mk] = await db.select().from(mandateKeys).where(eq(mandateKeys.keyId, a.mandateKeyId));
    expect(mk!.revokedAt).toBeNull();
    const [wh] = await db.select().from(webhooks).where(eq(webhooks.id, a.webhookId));
    expect(wh).toMatchObject({ status: "enabled", deletedAt: null });
    const [reset] = await db.select().from(loginTokens).where(eq(loginTokens.accountId, a.accountId));
    expect(reset!.usedAt).toBeNull();
  });

  it("on an account that is already confirmed, a magic link or a reset revokes nothing", async () => {
    const a = await attackerSignsUp();
    await confirmEmail(db, a.accountId);
    expect((await redeemMagicLink(db, await createLoginToken(db, a.accountId, "magic_link"))).ok).toBe(true);
    expect((await resetPassword(db, await createLoginToken(db, a.accountId, "password_reset"), "another password 1")).ok).toBe(true);
    expect(await keyAnswer(a.sandboxKey)).toBe(a.accountId);
    const [mk] = await db.select().from(mandateKeys).where(eq(mandateKeys.keyId, a.mandateKeyId));
    expect(mk!.revokedAt).toBeNull();
    const [wh] = await db.select().from(webhooks).where(eq(webhooks.id, a.webhookId));
    expect(wh).toMatchObject({ status: "enabled", deletedAt: null });
  });
});

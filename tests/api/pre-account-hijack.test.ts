import { describe, expect, inject, it } from "vitest";
import { call, uniqueEmail } from "../helpers";
import { mailedLink, mailTo, portalPage, serverAction, signIn, signUp, type Client } from "../portal-client";

/**
 * Pre-account hijack: someone signs up with another person's address and a password of
 * their own, before the owner does. The owner later proves the inbox with a mailed
 * sign-in link or password-reset link; from then on nothing the other person made works.
 * Each test plays its clients from addresses of its own (the server trusts X-Forwarded-For
 * in tests), so the per-address rate limits of other files do not interfere.
 */
const ATTACKER_PASSWORD = "the attacker's own password";
const client = (ip: string, cookie?: string): Client => ({ base: inject("baseUrl"), ip, cookie });
const mailDir = () => inject("mailDir");

/** The attacker signs up with `victim`, gets the sandbox key, and signs in with the password. */
async function attackerSignsUp(victim: string, ip: string) {
  const sandboxKey = await signUp(client(ip), victim, ATTACKER_PASSWORD);
  const session = await signIn(client(ip), "credentials", { email: victim, password: ATTACKER_PASSWORD });
  expect(session.error).toBeUndefined();
  const attacker = client(ip, session.cookie);
  expect((await portalPage(attacker, "/developers")).status).toBe(200);
  expect((await call("GET", "/api/v1/usage", { key: sandboxKey })).status).toBe(200);
  return { sandboxKey, attacker };
}

/** The attacker's password, session and key: all refused. */
async function expectAttackerLockedOut(victim: string, a: Awaited<ReturnType<typeof attackerSignsUp>>) {
  expect(await signIn(a.attacker, "credentials", { email: victim, password: ATTACKER_PASSWORD })).toEqual({ error: "CredentialsSignin" });
  const page = await portalPage(a.attacker, "/developers");
  expect(page.status).toBe(307);
  expect(page.location).toMatch(/\/signin\?callbackUrl=%2Fdevelopers$/);
  const r = await call("GET", "/api/v1/usage", { key: a.sandboxKey });
  expect(r.status).toBe(401);
  expect(r.body.error.code).toBe("api_key_revoked");
}

describe("pre-account hijack", () => {
  it("the owner signs in with a mailed link: the attacker's password, session and key stop working", async () => {
    const victim = uniqueEmail("victim");
    const a = await attackerSignsUp(victim, "192.0.2.11");

    const owner = client("192.0.2.12");
    const asked = await serverAction(owner, "/signin", ["app/signin/actions.ts", "emailSignInLinkAction"], [victim]);
    expect(asked.text).toContain("If an account exists for that address");
    const token = new URL(await mailedLink(mailDir(), victim, "/signin/link")).searchParams.get("token")!;
    // The link's page says what pressing "Sign in" will do to an unconfirmed account.
    expect((await portalPage(owner, `/signin/link?token=${token}`)).html).toContain('id="unconfirmed-warning"');
    const ownerSession = await signIn(owner, "magic-link", { token });
    expect(ownerSession.error).toBeUndefined();

    await expectAttackerLockedOut(victim, a);
    // The owner is signed in, and told what was revoked and why.
    const page = await portalPage(client(owner.ip, ownerSession.cookie), "/developers");
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="email-status">confirmed');
    expect(page.html).toMatch(/data-testid="revoked-at-confirmation"[^>]*>[^]*?1 API key[^]*?password[^]*?Forgot password/);
    // A later link of the now confirmed account warns of nothing (and would revoke nothing).
    await serverAction(owner, "/signin", ["app/signin/actions.ts", "emailSignInLinkAction"], [victim]);
    const next = await mailedLink(mailDir(), victim, "/signin/link", [token]);
    const later = await portalPage(owner, `/signin/link?token=${new URL(next).searchParams.get("token")}`);
    expect(later.html).toContain('data-testid="link-email"');
    expect(later.html).not.toContain("unconfirmed-warning");
  });

  it("the owner sets a password with a reset link: the same, and the owner's password works", async () => {
    const victim = uniqueEmail("victim");
    const a = await attackerSignsUp(victim, "192.0.2.21");

    const owner = client("192.0.2.22");
    const asked = await serverAction(owner, "/reset-password", ["app/reset-password/actions.ts", "emailResetLinkAction"], { form: { email: victim } });
    expect(asked.text).toContain("If an account exists for that address");
    const token = new URL(await mailedLink(mailDir(), victim, "/reset-password")).searchParams.get("token")!;
    expect((await portalPage(owner, `/reset-password?token=${token}`)).html).toContain('id="unconfirmed-warning"');
    const set = await serverAction(owner, "/reset-password", ["app/reset-password/actions.ts", "setNewPasswordAction"], {
      form: { token, password: "the owner's new password" },
    });
    expect(set.redirect).toBe("/signin?reset=1");
    await expectAttackerLockedOut(victim, a);
    const ownerSession = await signIn(owner, "credentials", { email: victim, password: "the owner's new password" });
    expect((await portalPage(client(owner.ip, ownerSession.cookie), "/developers")).status).toBe(200);
  });

  it("the sign-up's confirmation link, only when pressed, revokes what was made before it, as the mailed links do", async () => {
    const victim = uniqueEmail("victim");
    const a = await attackerSignsUp(victim, "192.0.2.31"); // the attacker signed up with the victim's address
    const mail = mailTo(mailDir(), victim, /Subject: Confirm your email address/)!;
    expect(mail).toMatch(/If you did not create this account, do not confirm it/);
    expect(mail).toMatch(/revokes what was made before/);
    const link = await mailedLink(mailDir(), victim, "/confirm");
    const token = new URL(link).searchParams.get("token")!;

    // Opening the link (a person, or a mail scanner fetching it first) confirms nothing and revokes nothing.
    const owner = client("192.0.2.32");
    const opened = await portalPage(owner, `/confirm?token=${encodeURIComponent(token)}`);
    expect(opened.status).toBe(200);
    expect(opened.html).toContain(victim);
    expect(opened.html).toMatch(/revokes what was made before this confirmation/);
    expect((await portalPage(a.attacker, "/developers")).html).toContain('data-testid="email-status">not confirmed');
    expect((await call("GET", "/api/v1/usage", { key: a.sandboxKey })).status).toBe(200);

    // Pressing "I created this account" without a password of the inbox holder's changes nothing.
    const noPassword = await serverAction(owner, "/confirm", ["app/confirm/actions.ts", "confirmEmailAction"], { form: { token } });
    expect(noPassword.text).not.toContain("Your email address is confirmed");
    expect((await call("GET", "/api/v1/usage", { key: a.sandboxKey })).status).toBe(200);

    // The victim presses it (believing they made the account): the attacker's password, session and key stop working.
    const pressed = await serverAction(owner, "/confirm", ["app/confirm/actions.ts", "confirmEmailAction"], {
      form: { token, password: "the inbox holder's password" },
    });
    expect(pressed.text).toContain("Your email address is confirmed");
    await expectAttackerLockedOut(victim, a);
    const ownerSession = await signIn(client("192.0.2.33"), "credentials", { email: victim, password: "the inbox holder's password" });
    expect(ownerSession.error).toBeUndefined();
    const page = await portalPage(client("192.0.2.33", ownerSession.cookie), "/developers");
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="email-status">confirmed');
    expect(page.html).toMatch(/data-testid="revoked-at-confirmation"[^>]*>[^]*?1 API key/);

    // The link again, on the confirmed account: no way to set a password, nothing revoked.
    const again = await serverAction(client("192.0.2.34"), "/confirm", ["app/confirm/actions.ts", "confirmEmailAction"], {
      form: { token, password: "someone else's password!" },
    });
    expect(again.text).toContain("already confirmed");
    expect((await signIn(client("192.0.2.35"), "credentials", { email: victim, password: "someone else's password!" })).error).toBe("CredentialsSignin");
    expect((await portalPage(client("192.0.2.33", ownerSession.cookie), "/developers")).status).toBe(200);
  });
});

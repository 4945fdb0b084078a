import { randomBytes, scryptSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../db-template";
import { uniqueEmail } from "../helpers";
import { portalPage, serverAction, signIn, signOut, signUp, type Client } from "../portal-client";
import { startServerOnFreePort, stopStartedServers, type StartedServer } from "../server";
import { withServerDb } from "../server-db";

/**
 * Sessions end on the server: signing out records the session's id, so a copy of its
 * cookie taken before (a shared computer, a stolen cookie) no longer opens anything; "sign
 * out everywhere" ends every session of the account. And a password hash of an older cost
 * is re-made at today's by the next sign-in, without ending any session. Each test plays
 * its clients from addresses of its own (the server trusts X-Forwarded-For in tests).
 */
const PASSWORD = "a long enough password";
const client = (ip: string, cookie?: string, base = inject("baseUrl")): Client => ({ base, ip, cookie });

async function signedIn(email: string, ip: string, base = inject("baseUrl")): Promise<Client> {
  const s = await signIn(client(ip, undefined, base), "credentials", { email, password: PASSWORD });
  expect(s.error).toBeUndefined();
  return client(ip, s.cookie, base);
}

/** What the server makes of a session cookie: the portal page, next-auth's session answer, a portal action. */
async function access(c: Client) {
  const page = await portalPage(c, "/developers");
  const session = (await (await fetch(`${c.base}/api/auth/session`, { headers: { cookie: c.cookie ?? "", "x-forwarded-for": c.ip } })).json()) as Record<string, unknown>;
  const action = await serverAction(c, "/developers", ["app/developers/actions.ts", "createKeyAction"], { form: { environment: "sandbox" } });
  return { page, session, action };
}

async function expectSignedIn(c: Client, email: string) {
  const a = await access(c);
  expect(a.page.status).toBe(200);
  expect(a.page.html).toContain(email);
  expect(a.session.accountId).toMatch(/^acct_/);
  expect(a.action.redirect).toBeNull();
  expect(a.action.text).toMatch(/prs_sandbox_[0-9A-Za-z]{32}/); // the action made a key
}

async function expectSignedOut(c: Client) {
  const a = await access(c);
  expect(a.page.status).toBe(307);
  expect(a.page.location).toMatch(/\/signin\?callbackUrl=%2Fdevelopers$/);
  expect(a.session).toEqual({});
  expect(a.action.redirect).toMatch(/^\/signin/);
  expect(a.action.text).not.toMatch(/prs_sandbox_[0-9A-Za-z]{32}/);
}

/** The stored `scrypt$N$…` hash of an account, read from the server's database. */
const storedHash = (email: string, server?: StartedServer) =>
  withServerDb(async (sql) => ((await sql`select password_hash from accounts where email = ${email}`)[0] as { password_hash: string }).password_hash, server);

describe("signing out", () => {
  it("ends the session on the server: a copy of its cookie taken before no longer opens the portal", async () => {
    const email = uniqueEmail("signout");
    await signUp(client("192.0.2.61"), email, PASSWORD);
    const browser = await signedIn(email, "192.0.2.61");
    const otherDevice = await signedIn(email, "192.0.2.62");
    const copy = client("192.0.2.63", browser.cookie); // the same cookie, copied elsewhere
    await expectSignedIn(copy, email);

    expect(await signOut(browser)).toEqual({ status: 200, cleared: true });
    await expectSignedOut(copy);
    await expectSignedOut(browser);
    // Only that session ended: the account's other one, and a new sign-in, work.
    await expectSignedIn(otherDevice, email);
    await expectSignedIn(await signedIn(email, "192.0.2.61"), email);
  });

  it("sign out everywhere ends every session of the account, this one included; the password stays", async () => {
    const email = uniqueEmail("everywhere");
    await signUp(client("192.0.2.64"), email, PASSWORD);
    const one = await signedIn(email, "192.0.2.64");
    const two = await signedIn(email, "192.0.2.65");
    const bystander = uniqueEmail("bystander");
    await signUp(client("192.0.2.66"), bystander, PASSWORD);
    const theirs = await signedIn(bystander, "192.0.2.66");

    // Without the second step's confirm=yes nothing happens.
    const unconfirmed = await serverAction(one, "/developers", ["app/developers/actions.ts", "signOutEverywhereAction"], { form: {} });
    expect(unconfirmed.redirect).toBeNull();
    await expectSignedIn(two, email);

    const r = await serverAction(one, "/developers", ["app/developers/actions.ts", "signOutEverywhereAction"], { form: { confirm: "yes" } });
    expect(r.redirect).toBe("/signin");
    await expectSignedOut(one);
    await expectSignedOut(two);
    await expectSignedIn(theirs, bystander);
    await expectSignedIn(await signedIn(email, "192.0.2.64"), email);
  });
});

describe("password hashes of an older cost", () => {
  // The shared server hashes at the weakest accepted cost (PASSWORD_HASH_FAST=1, to spare the
  // suite's CPU); the upgrade to today's cost is proved on a server at the production cost.
  let server: StartedServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-rehash-"));
  beforeAll(async () => {
    const shared = inject("serverEnv");
    let databaseUrl: string | undefined;
    if (shared.DATABASE_URL) {
      const url = new URL(shared.DATABASE_URL);
      url.pathname = `/prs_rehash_${Date.now()}_${randomBytes(3).toString("hex")}`;
      await createDatabase(shared.DATABASE_URL, url.pathname.slice(1));
      databaseUrl = url.toString();
    }
    server = await startServerOnFreePort((port) => ({
      ...shared, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dir, PASSWORD_HASH_FAST: "0",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }), path.join(dir, "server.log"));
  }, 90_000);
  afterAll(async () => {
    await stopStartedServers();
    if (server?.env.DATABASE_URL && server.env.DATABASE_URL !== inject("serverEnv").DATABASE_URL) {
      const name = new URL(server.env.DATABASE_URL).pathname.slice(1);
      await withServerDb((sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a 2^15 hash keeps working and is re-made at 2^17 by the next sign-in; sessions survive it; a wrong password changes nothing", async () => {
    const base = server.baseUrl;
    const email = uniqueEmail("rehash");
    await signUp(client("192.0.2.67", undefined, base), email, PASSWORD);
    expect(await storedHash(email, server)).toMatch(/^scrypt\$131072\$8\$1\$/); // new accounts: today's cost
    const earlier = await signedIn(email, "192.0.2.67", base);

    // The hash the service made for this password before N = 2^17, put in place as it was stored then.
    const salt = randomBytes(16);
    const legacy = ["scrypt", 32768, 8, 1, salt.toString("base64url"),
      scryptSync(PASSWORD, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString("base64url")].join("$");
    await withServerDb((sql) => sql`update accounts set password_hash = ${legacy} where email = ${email}`, server);

    expect(await signIn(client("192.0.2.68", undefined, base), "credentials", { email, password: "not the password" })).toEqual({ error: "CredentialsSignin" });
    expect(await storedHash(email, server)).toBe(legacy);

    const now = await signedIn(email, "192.0.2.68", base);
    const upgraded = await storedHash(email, server);
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(upgraded).not.toBe(legacy);
    await expectSignedIn(now, email); // the session made by that sign-in
    await expectSignedIn(earlier, email); // and one made before the re-hash
    await expectSignedIn(await signedIn(email, "192.0.2.69", base), email); // the same password, against the new hash
    expect(await storedHash(email, server)).toBe(upgraded); // nothing more to upgrade
  }, 60_000);
});

describe("PASSWORD_HASH_FAST (test suites only)", () => {
  it("the shared test server runs with it, says so in its log, and hashes new passwords at 2^14", async () => {
    expect(inject("serverEnv").PASSWORD_HASH_FAST).toBe("1");
    const log = fs.readFileSync(path.join(inject("dataDir"), "server.log"), "utf8");
    expect(log).toMatch(/WARNING: PASSWORD_HASH_FAST is on: .*2\^14/);
    const email = uniqueEmail("fasthash");
    await signUp(client("192.0.2.70"), email, PASSWORD);
    expect(await storedHash(email)).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    await expectSignedIn(await signedIn(email, "192.0.2.70"), email);
  });

  it("stops the start when the public base URL is https", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-fasthash-"));
    const log = path.join(dir, "server.log");
    try {
      const outcome = await startServerOnFreePort((port) => ({
        ...inject("serverEnv"), PORT: String(port), DATA_DIR: dir, PUBLIC_BASE_URL: "https://proof.example", WEBHOOK_ALLOW_INSECURE: "0", PASSWORD_HASH_FAST: "1",
      }), log).then((s) => s.stop().then(() => "started"), (e: Error) => e.message);
      expect(outcome).toMatch(/server exited early/);
      expect(fs.readFileSync(log, "utf8")).toMatch(/Invalid environment: PASSWORD_HASH_FAST: must not be 1 when PUBLIC_BASE_URL is https/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import canonicalize from "canonicalize";
import { createLocalJWKSet } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, companyStatus, issue, newAccount, uniqueEmail } from "../helpers";
import { startServerOnFreePort, stopStartedServers, type StartedServer } from "../server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");

/** The real operator CLI, as `npm run admin -- …` runs it. */
async function cli(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout } = await run(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args], {
      cwd: root, env: { ...process.env, ...env }, timeout: 60_000,
    });
    return { code: 0, out: JSON.parse(stdout.trim().split("\n").at(-1)!) };
  } catch (e: any) {
    return { code: e.code as number, out: JSON.parse(String(e.stdout).trim().split("\n").at(-1) || "{}") };
  }
}

describe("operator CLI while the server runs", () => {
  const env = () => ({ ...inject("serverEnv"), DATA_DIR: inject("dataDir") });

  it("creates an account whose sandbox key works against the server at once", async () => {
    const email = uniqueEmail("cli");
    const r = await cli(env(), "account", "create", "--email", email);
    expect(r.code).toBe(0);
    expect(Object.keys(r.out).sort()).toEqual(["account_id", "email", "sandbox_key"]);
    expect(r.out.email).toBe(email);
    expect(r.out.sandbox_key).toMatch(/^prs_sandbox_[0-9A-Za-z]{32}$/);
    const rec = await issue(r.out.sandbox_key);
    expect(rec.status).toBe("active");

    const dup = await cli(env(), "account", "create", "--email", email);
    expect(dup.code).toBe(1);
    expect(dup.out.error.code).toBe("account_exists");

    const id = r.out.account_id;
    expect((await cli(env(), "plan", "set", "--account", id, "--plan", "growth")).out).toEqual({ account_id: id, plan: "growth" });
    expect((await cli(env(), "role", "grant", "--account", id, "--role", "reviewer")).out).toEqual({ account_id: id, role: "reviewer" });
    const sk = await cli(env(), "key", "create", "--account", id, "--env", "sandbox");
    expect(Object.keys(sk.out).sort()).toEqual(["key", "key_id", "scopes"]);
    expect(sk.out.scopes).toBeNull(); // unrestricted unless --scopes says otherwise
    const scoped = await cli(env(), "key", "create", "--account", id, "--env", "sandbox", "--scopes", "webhooks,records:read");
    expect(scoped.out.scopes).toEqual(["records:read", "webhooks"]);
    expect((await cli(env(), "key", "create", "--account", id, "--env", "sandbox", "--scopes", "everything")).out.error.code).toBe("usage");
    expect((await cli(env(), "plan", "set", "--account", id, "--plan", "platinum")).out.error.code).toBe("usage");
    expect((await cli(env(), "frobnicate")).code).toBe(1);
  }, 120_000); // ten CLI processes, each loading the service's modules (~2–4 s apiece on a busy machine)
});

describe("signing-key rotation, on a server of its own", () => {
  // A rotation changes the key that signs everything afterwards: on the shared server it would
  // leak into every later test file. This server has its own data folder, hence its own keys.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-rotate-"));
  let own: StartedServer;
  beforeAll(async () => {
    own = await startServerOnFreePort(
      (port) => ({ ...inject("serverEnv"), DATA_DIR: dir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, WEBHOOK_WORKER: "off" }),
      path.join(dir, "server.log"),
    );
  }, 90_000);
  afterAll(async () => {
    await stopStartedServers();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (p: string) => (await fetch(own.baseUrl + p)).json() as Promise<any>;
  async function issueThere(key: string, subject: string) {
    const r = await fetch(`${own.baseUrl}/api/v1/records`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(companyStatus({ subject })),
    });
    expect(r.status).toBe(201);
    return (await r.json()) as any;
  }

  it("rotates the signing key: new records use it, old signatures keep verifying", async () => {
    const env = { ...own.env, DATA_DIR: dir };
    const sharedJwks = (await call("GET", "/.well-known/jwks.json")).body;
    const acct = await cli(env, "account", "create", "--email", uniqueEmail("rot"));
    expect(acct.code, JSON.stringify(acct.out)).toBe(0);
    const key = acct.out.sandbox_key;
    const before = await issueThere(key, "Before rotation");
    const rotated = await cli(env, "signing-key", "rotate");
    expect(rotated.code).toBe(0);
    expect(rotated.out.kid).not.toBe(before.integrity.signing_key_id);
    const jwks = await get("/.well-known/jwks.json");
    const kids = jwks.keys.map((k: any) => k.kid);
    expect(kids).toContain(before.integrity.signing_key_id);
    expect(kids).toContain(rotated.out.kid);
    const after = await issueThere(key, "After rotation");
    expect(after.integrity.signing_key_id).toBe(rotated.out.kid);
    const set = createLocalJWKSet(jwks);
    for (const rec of [before, after]) {
      const sig = await get(`/api/v1/records/${rec.verification_id}/signature`);
      expect(sig.valid).toBe(true);
      const k = (await set({ alg: "EdDSA", kid: rec.integrity.signing_key_id })) as CryptoKey;
      const ok = await crypto.subtle.verify("Ed25519", k, Buffer.from(rec.integrity.signature, "base64url"), new TextEncoder().encode(canonicalize(sig.signed_payload)!));
      expect(ok).toBe(true);
    }
    const status = await get(`/api/v1/records/${after.verification_id}/status`);
    expect(status.signing_key_id).toBe(rotated.out.kid);
    // The shared server, which the later test files use, still signs with the key it had. On
    // PostgreSQL both servers share one database, hence one published key set: it publishes
    // the new key too (docs/operations.md, "Signing keys: one published set").
    const shared = (await call("GET", "/.well-known/jwks.json")).body;
    const sharedKids = shared.keys.map((k: { kid: string }) => k.kid);
    if (process.env.DATABASE_URL) {
      expect(sharedKids).toEqual(expect.arrayContaining([...sharedJwks.keys.map((k: { kid: string }) => k.kid), rotated.out.kid]));
    } else {
      expect(shared).toEqual(sharedJwks);
    }
    const onShared = await issue((await newAccount("rot-shared")).sandboxKey);
    expect(sharedJwks.keys.map((k: { kid: string }) => k.kid)).toContain(onShared.integrity.signing_key_id);
  });
});

describe("operator CLI with no server running", () => {
  it("opens the database itself and keeps what it wrote", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-cli-"));
    const env: Record<string, string> = { DATA_DIR: dir };
    try {
      const a = await cli(env, "account", "create", "--email", uniqueEmail("solo"), "--plan", "starter");
      expect(a.code).toBe(0);
      expect(a.out.sandbox_key).toMatch(/^prs_sandbox_/);
      const live = await cli(env, "key", "create", "--account", a.out.account_id, "--env", "live");
      expect(live.out.error.code).toBe("email_not_confirmed");
      expect((await cli(env, "account", "confirm-email", "--account", a.out.account_id)).code).toBe(0);
      const ok = await cli(env, "key", "create", "--account", a.out.account_id, "--env", "live");
      expect(ok.out.key).toMatch(/^prs_live_/);
      const rot = await cli(env, "signing-key", "rotate");
      expect(rot.code).toBe(0);
      const keys = JSON.parse(fs.readFileSync(path.join(dir, "signing-keys.json"), "utf8"));
      expect(keys).toHaveLength(2);
      expect(fs.statSync(path.join(dir, "signing-keys.json")).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Five CLI processes, each starting tsx and opening (and migrating) an embedded database.
  }, 120_000);
});

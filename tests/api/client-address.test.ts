import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { baseUrl, uniqueEmail } from "../helpers";
import { PASSWORD, signIn, signUp } from "../portal-client";
import { startServerOnFreePort, type StartedServer } from "../server";

/**
 * The sign-in rate limit counts per client address. Only a proxy the operator trusts
 * (TRUST_PROXY=1, as the shared test server runs) may say what that address is through
 * X-Forwarded-For; without it the server uses the socket's, so a client cannot dodge the
 * limit by sending a new X-Forwarded-For with each try.
 */
async function signInAttempt(base: string, xff: string): Promise<string> {
  const headers = { "x-forwarded-for": xff };
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers });
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const r = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: `nobody-${randomUUID().slice(0, 8)}@example.test`, password: "not the password", json: "true" }),
  });
  const url = r.headers.get("location") ?? ((await r.json()) as { url: string }).url;
  return new URL(url, base).searchParams.get("error") ?? "";
}

const spoofed = (i: number) => `198.51.100.${i + 1}`;

describe("client address for the sign-in rate limit", () => {
  let untrusted: StartedServer;
  let untrustedUrl: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-xff-"));

  beforeAll(async () => {
    const { TRUST_PROXY: _trusted, ...shared } = inject("serverEnv");
    untrusted = await startServerOnFreePort(
      (port) => ({ ...shared, DATA_DIR: dir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }),
      path.join(dir, "server.log"),
    );
    untrustedUrl = untrusted.baseUrl;
  }, 90_000);

  afterAll(async () => {
    await untrusted?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("without TRUST_PROXY a new X-Forwarded-For per try does not dodge the limit", async () => {
    const errors: string[] = [];
    for (let i = 0; i < 12; i++) errors.push(await signInAttempt(untrustedUrl, spoofed(i)));
    expect(errors.slice(0, 10).every((e) => e === "CredentialsSignin")).toBe(true);
    expect(errors.slice(10)).toEqual(["rate_limited", "rate_limited"]);
  });

  it("with TRUST_PROXY=1 the proxy's X-Forwarded-For is the client address", async () => {
    const errors: string[] = [];
    for (let i = 0; i < 12; i++) errors.push(await signInAttempt(baseUrl(), `203.0.113.${i + 1}`));
    expect(errors).toEqual(Array(12).fill("CredentialsSignin"));
  });
});

describe("who a sign-in limit counts", () => {
  const wrong = (email: string, ip: string) => signIn({ base: baseUrl(), ip }, "credentials", { email, password: "not the password" });

  it("an IPv6 client is its /64: a new address in the same network per try does not dodge the limit", async () => {
    const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    const errors: (string | undefined)[] = [];
    for (let i = 0; i < 12; i++) errors.push((await wrong(uniqueEmail("v6"), `${net}:${i + 1}::${((i * 7919) % 0xffff).toString(16)}`)).error);
    expect(errors.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
    expect(errors.slice(10)).toEqual(["rate_limited", "rate_limited"]);
    // The next /64 is another client.
    expect((await wrong(uniqueEmail("v6"), `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:8::1`)).error).toBe("CredentialsSignin");
  }, 90_000);

  it("guesses at one email from one address are limited, and cannot lock the owner out from elsewhere", async () => {
    const email = uniqueEmail("owner");
    await signUp({ base: baseUrl(), ip: "192.0.2.201" }, email, PASSWORD);
    // Spread over several attacker addresses so the per-address limit is not what stops them.
    const attackers = ["192.0.2.210", "192.0.2.211"];
    const tries: (string | undefined)[] = [];
    for (const ip of attackers) for (let i = 0; i < 10; i++) tries.push((await wrong(email, ip)).error);
    expect(tries).toEqual(Array(20).fill("CredentialsSignin"));
    expect((await wrong(email, attackers[0]!)).error).toBe("rate_limited"); // that address's allowance is spent
    const owner = await signIn({ base: baseUrl(), ip: "192.0.2.220" }, "credentials", { email, password: PASSWORD });
    expect(owner.error).toBeUndefined();
    expect(owner.cookie).toMatch(/session-token=/);
  }, 90_000);
});

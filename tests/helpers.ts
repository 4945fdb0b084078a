import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { adminViaServer } from "./admin-client";
import { dnsQueryCount, setDnsEntry, type DnsEntry } from "./dns-server";
import type { Behaviour, Receiver } from "./webhook-receiver";

export const baseUrl = () => inject("baseUrl");

export type Res<T = any> = { status: number; headers: Headers; body: T; text: string };

/** One HTTP call to the started server. `body` objects are sent as JSON; strings as they are. */
export async function call<T = any>(
  method: string,
  p: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; idem?: string | null } = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["Content-Type"] ??= "application/json";
  }
  if (opts.idem !== null && method === "POST" && /\/api\/v1\/records(\/batch)?$/.test(p)) {
    headers["Idempotency-Key"] ??= opts.idem ?? randomUUID();
  }
  const res = await fetch(baseUrl() + p, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Operator commands through the running server's admin endpoint (what the CLI does). */
export const admin = (...argv: string[]): Promise<any> => adminViaServer(inject("dataDir"), baseUrl(), argv);

/**
 * Bring a record's re-check forward to now (the operator's `record recheck`): the test server
 * re-checks daily, as production does, so a test about a re-check asks for one — rather than
 * every monitored record the suite ever issued being re-checked every second and a half.
 */
export const recheckNow = (id: string): Promise<any> => admin("record", "recheck", "--id", id);

/** The operator's `organisation recheck`: the organisation's LEI register re-check brought forward to now. */
export const recheckOrganisationNow = (accountId: string): Promise<any> => admin("organisation", "recheck", "--account", accountId);

/**
 * Wait for `check` to hold, asking for a re-check before each look — of the record `id`, or of
 * the verified organisation of `{ organisation: accountId }`: what a test of one or several
 * re-check rounds (a lapse, an outage, a recovery) waits with.
 */
export async function untilRechecked<T>(
  what: string, of: string | { organisation: string }, check: () => Promise<T | undefined | false | null>, timeoutMs = 20_000,
): Promise<T> {
  return until(what, async () => {
    const r = await check();
    if (r) return r;
    await (typeof of === "string" ? recheckNow(of) : recheckOrganisationNow(of.organisation));
    return undefined;
  }, timeoutMs, 250);
}

export const uniqueEmail = (tag = "t") => `${tag}-${randomUUID().slice(0, 8)}@example.test`;

export async function newAccount(tag = "t") {
  const r = await admin("account", "create", "--email", uniqueEmail(tag));
  return { accountId: r.account_id as string, sandboxKey: r.sandbox_key as string };
}

/** An account with a confirmed email, a plan and a live key. */
export async function newLiveAccount(plan: "starter" | "growth" = "growth") {
  const a = await newAccount("live");
  await admin("account", "confirm-email", "--account", a.accountId);
  await admin("plan", "set", "--account", a.accountId, "--plan", plan);
  const k = await admin("key", "create", "--account", a.accountId, "--env", "live");
  return { ...a, liveKey: k.key as string };
}

export const companyStatus = (over: Record<string, unknown> = {}) => ({
  subject: "Acme Trading Ltd",
  claim_type: "company_status",
  claim: "Acme Trading Ltd is an active company.",
  visibility: "public",
  ...over,
});

export async function issue(key: string, over: Record<string, unknown> = {}) {
  const r = await call("POST", "/api/v1/records", { key, body: companyStatus(over) });
  if (r.status !== 201) throw new Error(`issue failed: ${r.status} ${r.text}`);
  return r.body;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Edit the loopback DNS server's zone (see tests/dns-server.ts). */
export function setDns(name: string, entry: DnsEntry | null) {
  setDnsEntry(inject("dnsZoneFile"), name, entry);
}

/** How many TXT questions for `name` the loopback DNS server has been asked. */
export const dnsQueries = (name: string) => dnsQueryCount(inject("dnsZoneFile"), name);

/** Poll `check` until it returns something truthy, or fail after `timeoutMs` naming `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false | null> | T | undefined | false | null, timeoutMs = 20_000, stepMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}

/** Wait until the clock has passed `iso` (plus `marginMs`). */
export const untilPast = (iso: string, marginMs = 50) => until(`${iso} to pass`, () => Date.now() > Date.parse(iso) + marginMs, Date.parse(iso) - Date.now() + 60_000, 50);

/**
 * Send a request whose `expires_at` lies only `ms` ahead, so a test can watch it pass. The
 * server refuses an `expires_at` less than MIN_VALIDITY_SECONDS (1 s in tests) away with a
 * 422 naming it; on a slow machine the request may get there that late, so then `send` is
 * called again with twice the time. `send` must use a fresh Idempotency-Key per call.
 */
export async function withShortExpiry<T extends Res>(send: (expiresAt: string) => Promise<T>, ms = 3000): Promise<{ res: T; expiresAt: string }> {
  for (let budget = ms; ; budget *= 2) {
    const expiresAt = new Date(Date.now() + budget).toISOString();
    const res = await send(expiresAt);
    const refusedForTime = res.status === 422 && JSON.stringify(res.body?.error ?? {}).includes("expires_at");
    if (!refusedForTime || budget >= 8 * ms) return { res, expiresAt };
  }
}

let registeredHooks = 0;

/**
 * A new endpoint of the loopback receiver `rx`, registered as a webhook of the account `key`
 * belongs to (POST /api/v1/webhooks with `body` added), its secret set from the answer.
 */
export async function registerHook(rx: Receiver, key: string, behaviour: Behaviour = {}, body: Record<string, unknown> = {}) {
  const ep = rx.endpoint(`registered-${registeredHooks++}`, behaviour);
  const r = await call("POST", "/api/v1/webhooks", { key, body: { url: ep.url, ...body } });
  if (r.status !== 201) throw new Error(`registering a webhook answered ${r.status}: ${r.text}`);
  ep.setSecret(r.body.secret);
  return { ep, hook: r.body };
}

/**
 * A page's HTML with the markup that splits a sentence removed: React's `<!-- -->` between
 * text nodes, and the element a self-declared name is shown in (components/speaker-name.tsx),
 * kept as its text — to read a sentence as a visitor reads it.
 */
export const sentenceText = (html: string) => html.replace(/<!-- -->/g, "").replace(/<bdi [^>]*data-testid="self-name"[^>]*>([^<]*)<\/bdi>/g, "$1");

export { uniqueIban } from "./iban";

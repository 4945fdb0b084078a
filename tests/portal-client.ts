import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { admin, call, uniqueEmail } from "./helpers";
import { mailedLinkIn, mailTo } from "./mail-capture";

/**
 * The portal as a browser drives it, over plain HTTP: server actions (found by file and
 * export name in the build's server-reference manifest, then posted the way Next's client
 * does), next-auth sign-ins, and the links in mails the SMTP capture received.
 */
const root = path.resolve(import.meta.dirname, "..");

function actionId(file: string, exportedName: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, a]) => a.filename === file && a.exportedName === exportedName)?.[0];
  if (!id) throw new Error(`no server action ${exportedName} in ${file} in the build`);
  return id;
}

export type Client = { base: string; ip: string; cookie?: string };

const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

/**
 * Call a server action on `page` as the React client does: plain arguments as a JSON array,
 * or `(previous state, form)` for form actions, encoded as multipart with the form's fields
 * under the `_1_` prefix (React's encodeReply). Answers the RSC payload's text.
 */
export async function serverAction(
  c: Client, page: string, action: [file: string, exportedName: string], args: unknown[] | { form: Record<string, string | string[]> },
): Promise<{ status: number; redirect: string | null; text: string }> {
  const headers: Record<string, string> = {
    "Next-Action": actionId(...action), Accept: "text/x-component", "x-forwarded-for": c.ip, Origin: c.base,
    ...(c.cookie ? { cookie: c.cookie } : {}),
  };
  let body: string | FormData;
  if (Array.isArray(args)) {
    headers["Content-Type"] = "text/plain;charset=UTF-8";
    body = JSON.stringify(args);
  } else {
    body = new FormData();
    for (const [k, v] of Object.entries(args.form)) for (const one of [v].flat()) body.append(`_1_${k}`, one); // a list: a field sent several times (checkboxes)
    body.append("0", JSON.stringify([{}, "$K1"])); // the root last, as React sends it
  }
  const res = await fetch(`${c.base}${page}`, { method: "POST", headers, body, redirect: "manual" });
  // A redirect from an action called by fetch is a header (`<url>;push`), not a 3xx.
  return { status: res.status, redirect: res.headers.get("x-action-redirect")?.split(";")[0] ?? null, text: await res.text() };
}

/** The sign-up form: the sandbox key shown once, or throws with the answer. */
export async function signUp(c: Client, email: string, password: string): Promise<string> {
  const r = await serverAction(c, "/signup", ["app/signup/actions.ts", "signUpAction"], { form: { email, password } });
  const key = /prs_sandbox_[0-9A-Za-z]{32}/.exec(r.text)?.[0];
  if (!key) throw new Error(`sign-up failed: ${r.status} ${r.text.slice(0, 500)}`);
  return key;
}

/**
 * A next-auth sign-in through `provider` ("credentials": email and password; "magic-link":
 * the mailed token). Answers the session cookie, or the error next-auth reports.
 */
export async function signIn(c: Client, provider: "credentials" | "magic-link", fields: Record<string, string>): Promise<{ cookie?: string; error?: string }> {
  const headers = { "x-forwarded-for": c.ip };
  const csrf = await fetch(`${c.base}/api/auth/csrf`, { headers });
  const csrfCookie = cookieOf(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${c.base}/api/auth/callback/${provider}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, ...fields, json: "true" }),
  });
  const url = res.headers.get("location") ?? ((await res.json()) as { url: string }).url;
  const error = new URL(url, c.base).searchParams.get("error");
  if (error) return { error };
  const session = res.headers.getSetCookie().map((s) => s.split(";")[0]!).find((s) => /session-token=/.test(s));
  if (!session) throw new Error(`no session cookie after signing in (${res.status} ${url})`);
  return { cookie: session };
}

/**
 * Sign out as the portal's button does (next-auth's `signOut()`: POST /api/auth/signout with
 * its CSRF token). Answers the status and whether next-auth cleared the session cookie.
 */
export async function signOut(c: Client): Promise<{ status: number; cleared: boolean }> {
  if (!c.cookie) throw new Error("signOut needs a signed-in client");
  const headers = { "x-forwarded-for": c.ip };
  const csrf = await fetch(`${c.base}/api/auth/csrf`, { headers: { ...headers, cookie: c.cookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${c.base}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie: [c.cookie, cookieOf(csrf)].filter(Boolean).join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/signin", json: "true" }),
  });
  const cleared = res.headers.getSetCookie().some((s) => /session-token=;/.test(s) && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(s));
  return { status: res.status, cleared };
}

/** A portal page with the client's cookie: its HTML, or where the server sent us instead. */
export async function portalPage(c: Client, page: string): Promise<{ status: number; location: string | null; html: string }> {
  const res = await fetch(`${c.base}${page}`, { headers: { "x-forwarded-for": c.ip, ...(c.cookie ? { cookie: c.cookie } : {}) }, redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), html: await res.text() };
}

/** The password of the tests' portal accounts. */
export const PASSWORD = "a long enough password";

let ipSeq = 0;
/** Another client address (TRUST_PROXY): portal clients of one test file do not share the per-address sign-in limit. */
export const nextIp = () => `198.51.100.${(++ipSeq % 250) + 1}`;

/**
 * A signed-in portal session of a new account, signed up through the form, with `role` granted
 * by the operator CLI (null: a customer).
 */
export async function staffSession(role: "reviewer" | "admin" | null, tag = "staff"): Promise<Client & { accountId: string }> {
  const email = uniqueEmail(tag);
  const c: Client = { base: inject("baseUrl"), ip: nextIp() };
  const key = await signUp(c, email, PASSWORD);
  const accountId = (await call("GET", "/api/v1/account", { key })).body.id as string;
  if (role) await admin("role", "grant", "--account", accountId, "--role", role);
  const s = await signIn(c, "credentials", { email, password: PASSWORD });
  if (s.error) throw new Error(`signing in as ${email} (${role}) failed: ${s.error}`);
  return { ...c, cookie: s.cookie, accountId };
}

export { mailTo };

/** The newest `pathname?token=…` link mailed to `to` whose token is not in `seenTokens` (waits up to 15 s). */
export const mailedLink = (mailDir: string, to: string, pathname: string, seenTokens: string[] = []) =>
  mailedLinkIn(mailDir, to, pathname, (link) => seenTokens.includes(new URL(link).searchParams.get("token")!));

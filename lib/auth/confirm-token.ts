import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "./secret";

export const CONFIRM_TTL_SECONDS = 48 * 3600;

const mac = (accountId: string, exp: number) =>
  createHmac("sha256", getAuthSecret()).update(`prs-email-confirm\0${accountId}\0${exp}`).digest();

/** `<account id>.<expiry, unix seconds>.<HMAC-SHA256 base64url>` — no table, no state. */
export function makeConfirmToken(accountId: string, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + CONFIRM_TTL_SECONDS;
  return `${accountId}.${exp}.${mac(accountId, exp).toString("base64url")}`;
}

export type ConfirmCheck = { ok: true; accountId: string } | { ok: false; reason: "invalid" | "expired" };

export function checkConfirmToken(token: string | undefined, now = Date.now()): ConfirmCheck {
  const m = /^(acct_[A-Za-z0-9]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!m) return { ok: false, reason: "invalid" };
  const [, accountId, expText, sig] = m;
  const exp = Number(expText);
  const given = Buffer.from(sig!, "base64url");
  const expected = mac(accountId!, exp);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  if (exp * 1000 < now) return { ok: false, reason: "expired" };
  return { ok: true, accountId: accountId! };
}

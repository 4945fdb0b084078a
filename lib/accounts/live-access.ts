import type { Plan } from "./types";

/**
 * Why this account may not work in live yet (no live keys, and in the portal no live
 * mandate keys or webhooks), or null when it may: live needs a confirmed email and a plan.
 */
export function liveBlockedReason(account: { emailConfirmedAt: Date | null; plan: Plan }): string | null {
  if (!account.emailConfirmedAt) {
    return account.plan === "none"
      ? "Live keys need a confirmed email address and a plan. Confirm your email first; then choose a plan."
      : "Live keys need a confirmed email address. Open the link we mailed you.";
  }
  return account.plan === "none" ? "Live keys need a plan (starter or growth). Your account has no plan yet." : null;
}

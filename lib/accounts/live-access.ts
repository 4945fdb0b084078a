import type { Environment, Plan } from "./types";

/**
 * Why this account may not work in live yet (no live keys, and in the portal no live
 * mandate keys or webhooks), or null when it may: live needs a confirmed email and a plan.
 */
export function liveBlockedReason(account: { emailConfirmedAt: Date | null; plan: Plan }, what = "Live keys"): string | null {
  if (!account.emailConfirmedAt) {
    return account.plan === "none"
      ? `${what} need a confirmed email address and a plan. Confirm your email first; then choose a plan.`
      : `${what} need a confirmed email address. Open the link we mailed you.`;
  }
  return account.plan === "none" ? `${what} need a plan (starter or growth). Your account has no plan yet.` : null;
}

/**
 * The environment a portal form asks for (`raw`): sandbox always; live only while the
 * account may work in live — the same rule as for live API keys.
 */
export function portalEnvironment(
  account: { emailConfirmedAt: Date | null; plan: Plan }, raw: unknown, what?: string,
): { environment: Environment } | { error: string } {
  if (raw === "sandbox") return { environment: raw };
  if (raw !== "live") return { error: "Choose sandbox or live." };
  const blocked = liveBlockedReason(account, what);
  return blocked ? { error: blocked } : { environment: raw };
}

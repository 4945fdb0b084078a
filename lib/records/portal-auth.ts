import type { AuthContext, Environment, Plan, Role } from "@/lib/accounts/types";

/** The portal acts as the account owner; history records the actor as `owner:portal`. */
export const PORTAL_KEY_ID = "portal";

export function portalAuth(account: { id: string; plan: Plan; role: Role }, environment: Environment): AuthContext {
  return { accountId: account.id, environment, keyId: PORTAL_KEY_ID, plan: account.plan, role: account.role };
}

/**
 * Why the portal will not act in live for this account, or null: the same rule as for live
 * API keys (a confirmed email and a plan). Sandbox is always open.
 */
export function liveBlockedReason(account: { emailConfirmedAt: Date | null; plan: Plan }): string | null {
  if (!account.emailConfirmedAt) return "Live proofs need a confirmed email address and a plan.";
  if (account.plan === "none") return "Live proofs need a plan (starter or growth).";
  return null;
}

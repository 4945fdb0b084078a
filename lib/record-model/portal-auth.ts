import type { AuthContext, Environment, Plan, Role } from "@/lib/accounts/types";

/** The portal acts as the account owner; history records the actor as `owner:portal`. */
export const PORTAL_KEY_ID = "portal";

export function portalAuth(account: { id: string; plan: Plan; role: Role; name: string | null }, environment: Environment): AuthContext {
  // The signed-in owner is unrestricted (scopes restrict API keys).
  return { accountId: account.id, environment, keyId: PORTAL_KEY_ID, plan: account.plan, role: account.role, accountName: account.name, scopes: null };
}

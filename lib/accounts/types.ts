import type { Scope } from "./scopes";
export type Environment = "sandbox" | "live";
export type Plan = "none" | "starter" | "growth";
export type Role = "customer" | "reviewer" | "admin";
export const PLANS: readonly Plan[] = ["none", "starter", "growth"];
export const ROLES: readonly Role[] = ["customer", "reviewer", "admin"];

/** Who is calling, resolved from the bearer key. The environment comes from the key. */
export type AuthContext = {
  accountId: string;
  environment: Environment;
  keyId: string;
  plan: Plan;
  role: Role;
  /** The account's public organisation name (null: none set), signed into the records it issues. */
  accountName: string | null;
  /** The key's scopes (lib/accounts/scopes.ts); null: unrestricted. */
  scopes: Scope[] | null;
};

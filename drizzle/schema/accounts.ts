import type { Scope } from "@/lib/accounts/scopes";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, jsonb } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  emailConfirmedAt: ts("email_confirmed_at"),
  role: text("role", { enum: ["customer", "reviewer", "admin"] }).notNull().default("customer"),
  plan: text("plan", { enum: ["none", "starter", "growth"] }).notNull().default("none"),
  /** The organisation name its records are stated by (public: certificates, signed status); null: "unnamed account". */
  name: text("name"),
  /** scrypt, self-describing (`scrypt$N$r$p$salt$hash`); null for accounts made by the CLI. */
  passwordHash: text("password_hash"),
  /**
   * Raised whenever the password is set, replaced or voided, and by "sign out everywhere";
   * a session carries the epoch it was made in and stops counting once it moves. Not
   * raised when a hash is only re-made at a higher cost (lib/auth/store-password.ts).
   */
  sessionEpoch: integer("session_epoch").notNull().default(0),
  /** An admin enabled exchange_verified_trade (live exchange API keys) for this account in /admin. */
  liveExchangeVerification: boolean("live_exchange_verification").notNull().default(false),
  /**
   * Who made the account: `signup` (anyone, with any address: the pre-account-hijack
   * protection applies when the address is first proven) or `operator` (the CLI / admin
   * endpoint, on the operator's word: nothing in it was made by a stranger). See docs/security.md.
   */
  createdBy: text("created_by", { enum: ["signup", "operator"] }).notNull().default("signup"),
  /**
   * Staff suspended the whole account (issue 39, lib/accounts/suspend-account.ts): its live
   * records are suspended by staff, its keys refused, its webhooks disabled, its plan frozen and
   * sign-in refused, until staff reinstate it. The reason is the public one on its records.
   */
  suspendedAt: ts("suspended_at"),
  suspendedReason: text("suspended_reason"),
  /** How often the account changed its name, and when last (a risk signal for reviewers). */
  renameCount: integer("rename_count").notNull().default(0),
  renamedAt: ts("renamed_at"),
  createdAt: createdAt(),
});

/**
 * A customer's request to go live on a plan (no payment provider: an admin approves it in
 * /admin, which sets the plan, or declines it with a reason). At most one pending request
 * per account (partial unique index).
 */
export const planRequests = pgTable(
  "plan_requests",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    plan: text("plan", { enum: ["starter", "growth"] }).notNull(),
    /** What the customer says they will use it for (optional, shown to the admin). */
    note: text("note"),
    status: text("status", { enum: ["pending", "approved", "declined"] }).notNull().default("pending"),
    decidedBy: text("decided_by").references(() => accounts.id),
    decidedAt: ts("decided_at"),
    /** Why it was declined (shown to the customer); null when approved. */
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [
    index("plan_requests_account_idx").on(t.accountId, t.createdAt),
    uniqueIndex("plan_requests_one_pending_idx").on(t.accountId).where(sql`status = 'pending'`),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** SHA-256 (hex) of the whole secret; the secret itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** The key's prefix, `prs_sandbox_` or `prs_live_`: with lastFour, all that is kept for display (`prs_live_…Wx3k`). */
    keyPrefix: text("key_prefix").notNull(),
    /** The key's last four characters; null for keys made before they were kept (migration 0011). */
    lastFour: text("last_four"),
    /** A restricted key's scopes (lib/accounts/scopes.ts); null: unrestricted. */
    scopes: jsonb("scopes").$type<Scope[]>(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_account_idx").on(t.accountId)],
);

export const usageCounters = pgTable("usage_counters", {
  accountId: text("account_id").notNull().references(() => accounts.id),
  /** Calendar month in UTC, `YYYY-MM`. */
  period: text("period").notNull(),
  metric: text("metric", { enum: ["live_records", "reviewed_verifications"] }).notNull(),
  count: integer("count").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.accountId, t.period, t.metric] })]);

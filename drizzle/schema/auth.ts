import { index, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

/** Single-use sign-in links (magic link, password reset); only the SHA-256 of the token is stored. */
export const loginTokens = pgTable(
  "login_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    purpose: text("purpose", { enum: ["magic_link", "password_reset"] }).notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("login_tokens_account_idx").on(t.accountId, t.createdAt)],
);

/**
 * Sessions ended by signing out, by id (the `sid` a session's JWT carries), until the JWT
 * could no longer be valid anyway; every instance reads the same rows. Past `expires_at`
 * rows are deleted by the sweep.
 */
export const revokedSessions = pgTable(
  "revoked_sessions",
  {
    sid: text("sid").primaryKey(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("revoked_sessions_expires_idx").on(t.expiresAt)],
);

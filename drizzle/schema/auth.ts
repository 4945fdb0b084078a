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

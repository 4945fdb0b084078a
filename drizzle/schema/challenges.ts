import { index, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

/** A challenge belongs to the account (and environment) that asked, lives one hour and is used once. */
export const domainChallenges = pgTable(
  "domain_challenges",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    domain: text("domain").notNull(),
    token: text("token").notNull(),
    txtName: text("txt_name").notNull(),
    txtValue: text("txt_value").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    usedByRecord: text("used_by_record"),
    createdAt: createdAt(),
  },
  (t) => [index("domain_challenges_account_idx").on(t.accountId, t.createdAt)],
);

export const walletChallenges = pgTable(
  "wallet_challenges",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** Normalised: EVM checksummed, bech32 lower case, base58 as is. */
    address: text("address").notNull(),
    network: text("network").notNull(),
    claimType: text("claim_type").notNull(),
    nonce: text("nonce").notNull(),
    message: text("message").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    usedByRecord: text("used_by_record"),
    createdAt: createdAt(),
  },
  (t) => [index("wallet_challenges_account_idx").on(t.accountId, t.createdAt)],
);

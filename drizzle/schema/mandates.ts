import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

/**
 * A principal's Ed25519 public key for signing agent mandates. `key_id` is chosen by
 * the caller and unique within its account (issue 29: two accounts may hold the same id,
 * neither affects the other's); the service never holds the private half.
 */
export const mandateKeys = pgTable(
  "mandate_keys",
  {
    keyId: text("key_id").notNull(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    /** Environment of the API key (or portal) that registered it. */
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    algorithm: text("algorithm", { enum: ["Ed25519"] }).notNull().default("Ed25519"),
    /** base64url of the 32 raw public-key bytes. */
    publicKey: text("public_key").notNull(),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [primaryKey({ name: "mandate_keys_pkey", columns: [t.accountId, t.keyId] }), index("mandate_keys_account_idx").on(t.accountId, t.createdAt), index("mandate_keys_key_id_idx").on(t.keyId)],
);

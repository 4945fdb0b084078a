import { pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * The published signing keys: the public half of every key any server process holds
 * (lib/signing/published-keys.ts). A process adds its keys here before it signs with them,
 * and every process serves the JWKS from this table, so no instance signs with a key the
 * others do not publish. Private keys never enter the database.
 */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  /** The Ed25519 public key, base64url (the JWK's `x`). */
  x: text("x").notNull(),
  /**
   * Which records the key signs: `live` keys sign everything live (the JWKS, did:web:<host>);
   * `sandbox` keys sign only sandbox credentials (did:web:<host>:sandbox), so a verifier
   * trusting the live issuer never accepts a sandbox statement.
   */
  environment: text("environment", { enum: ["live", "sandbox"] }).notNull().default("live"),
  publishedAt: ts("published_at").notNull().defaultNow(),
});

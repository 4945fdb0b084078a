import { eq } from "drizzle-orm";
import { accounts, apiKeys } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { newApiKeyId, newApiKeySecret } from "@/lib/ids";
import { hashApiKey } from "./api-key-hash";
import { displayParts } from "./key-display";
import type { Scope } from "./scopes";
import type { Environment } from "./types";

export class ApiKeyRefused extends Error {
  constructor(readonly code: "account_not_found" | "email_not_confirmed" | "plan_inactive", message: string) {
    super(message);
  }
}

/**
 * Create a key; the secret is returned once, and only its hash, prefix and last four characters
 * are kept. `scopes` restricts it (lib/accounts/scopes.ts); null (the default) leaves it unrestricted.
 */
export async function createApiKey(db: DbOrTx, accountId: string, environment: Environment, scopes: Scope[] | null = null) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new ApiKeyRefused("account_not_found", `No account ${accountId}.`);
  if (environment === "live") {
    if (!account.emailConfirmedAt) {
      throw new ApiKeyRefused("email_not_confirmed", "Live keys need a confirmed email address.");
    }
    if (account.plan === "none") {
      throw new ApiKeyRefused("plan_inactive", "Live keys need an active plan (starter or growth).");
    }
  }
  const secret = newApiKeySecret(environment);
  const id = newApiKeyId();
  await db.insert(apiKeys).values({
    id, accountId, environment, keyHash: hashApiKey(secret), ...displayParts(secret), scopes,
  });
  return { key: secret, keyId: id, scopes };
}

import { and, eq, inArray, isNull } from "drizzle-orm";
import { apiKeys, mandateKeys, webhookDeliveries, webhooks } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";

export const REMOVED_AT_CONFIRMATION =
  "Removed when the account's email address was confirmed through a mailed sign-in, password-reset or confirmation link: " +
  "endpoints registered before the address was proven may not be the owner's.";

/**
 * An unconfirmed account's address has just been proven by a mailed sign-in, reset or confirmation link,
 * which proves the inbox but not that its holder is the one who signed up. Everything that
 * gives access and was made before — every API key, mandate key and webhook endpoint — is
 * revoked (endpoints are removed as a DELETE would: an endpoint only disabled could be
 * enabled again and would then receive the owner's events at someone else's URL). Runs in
 * the confirming transaction, with `at` its confirmation time, which is also the time each
 * of these stops (the portal tells the owner what went, by that time).
 */
export async function revokeAccessBeforeConfirmation(tx: DbOrTx, accountId: string, at: Date) {
  await tx.update(apiKeys).set({ revokedAt: at }).where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  await tx.update(mandateKeys).set({ revokedAt: at }).where(and(eq(mandateKeys.accountId, accountId), isNull(mandateKeys.revokedAt)));
  const hooks = await tx.select({ id: webhooks.id }).from(webhooks).where(and(eq(webhooks.accountId, accountId), isNull(webhooks.deletedAt)));
  if (hooks.length === 0) return;
  const ids = hooks.map((h) => h.id);
  // Deliveries first, then endpoints: the delivery worker's lock order (see deleteWebhook).
  await tx
    .update(webhookDeliveries)
    .set({ status: "failed" })
    .where(and(inArray(webhookDeliveries.webhookId, ids), eq(webhookDeliveries.status, "pending")));
  await tx.update(webhooks).set({ deletedAt: at, status: "disabled", disabledReason: REMOVED_AT_CONFIRMATION }).where(inArray(webhooks.id, ids));
}

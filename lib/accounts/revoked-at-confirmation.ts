import { and, count, eq } from "drizzle-orm";
import { apiKeys, mandateKeys, webhooks } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";

/** How long after such a confirmation the portal keeps telling the owner about it. */
const SHOWN_FOR_MS = 30 * 86_400_000;

/**
 * What `revokeAccessBeforeConfirmation` revoked when a mailed link confirmed the address —
 * found by that time, which it wrote as each one's revocation time — or null (confirmed by
 * nothing made before, or long ago).
 */
export async function revokedAtConfirmation(db: Db, account: { id: string; emailConfirmedAt: Date | null }, now = new Date()) {
  const at = account.emailConfirmedAt;
  if (!at || now.getTime() - at.getTime() > SHOWN_FOR_MS) return null;
  const n = async (q: Promise<{ n: number }[]>) => (await q)[0]?.n ?? 0;
  const [keys, mandates, hooks] = await Promise.all([
    n(db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.accountId, account.id), eq(apiKeys.revokedAt, at)))),
    n(db.select({ n: count() }).from(mandateKeys).where(and(eq(mandateKeys.accountId, account.id), eq(mandateKeys.revokedAt, at)))),
    n(db.select({ n: count() }).from(webhooks).where(and(eq(webhooks.accountId, account.id), eq(webhooks.deletedAt, at)))),
  ]);
  return keys + mandates + hooks === 0 ? null : { at, apiKeys: keys, mandateKeys: mandates, webhooks: hooks };
}

import { and, eq, isNull } from "drizzle-orm";
import { domainChallenges, walletChallenges } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { DbOrTx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";

/**
 * Reading and using up challenges: what a claim type proved by a challenge needs at check
 * time. Apart from ./challenges (which issues them and asks the claim registry which types
 * take one), so a claim module importing this does not import the registry back.
 */

export type ChallengeTable = typeof domainChallenges | typeof walletChallenges;
const PARAM = "evidence.challenge_id";

/** The caller's challenge in whatever state (open, used, expired), or null; for the portal. */
export async function findChallenge<T extends ChallengeTable>(db: DbOrTx, table: T, auth: AuthContext, id: string) {
  const [row] = await db
    .select()
    .from(table as ChallengeTable)
    .where(and(eq(table.id, id), eq(table.accountId, auth.accountId), eq(table.environment, auth.environment)));
  return (row as T["$inferSelect"] | undefined) ?? null;
}

/** The caller's own, unexpired, unused challenge — or the field error saying why not. */
export async function loadChallenge<T extends ChallengeTable>(db: DbOrTx, table: T, auth: AuthContext, id: string, now: Date) {
  const [row] = await db
    .select()
    .from(table as ChallengeTable)
    .where(and(eq(table.id, id), eq(table.accountId, auth.accountId), eq(table.environment, auth.environment)));
  if (!row) return { error: { code: "challenge_not_found", param: PARAM, message: `No challenge ${id.slice(0, 60)} for this API key.` } as FieldError };
  if (row.usedAt) return { error: { code: "challenge_used", param: PARAM, message: "This challenge has already been used; request a new one." } as FieldError };
  if (row.expiresAt.getTime() <= now.getTime()) {
    return { error: { code: "challenge_expired", param: PARAM, message: "This challenge expired (challenges live one hour); request a new one." } as FieldError };
  }
  return { row: row as T["$inferSelect"] };
}

/** Mark the challenge used inside the issuing transaction; a concurrent use loses. */
export async function consumeChallenge(tx: DbOrTx, table: ChallengeTable, id: string, recordId: string): Promise<FieldError | null> {
  const r = await tx
    .update(table)
    .set({ usedAt: new Date(), usedByRecord: recordId })
    .where(and(eq(table.id, id), isNull(table.usedAt)))
    .returning({ id: table.id });
  return r.length === 1 ? null : { code: "challenge_used", param: PARAM, message: "This challenge has already been used; request a new one." };
}

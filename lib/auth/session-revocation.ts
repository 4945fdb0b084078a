import { randomBytes } from "node:crypto";
import { and, eq, lt, notExists } from "drizzle-orm";
import { accounts, revokedSessions } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";

/** Sessions live this long from their last refresh (next-auth `session.maxAge`). */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

/** The id a session's JWT carries from sign-in on: 16 random bytes, base64url. */
export const newSessionId = () => randomBytes(16).toString("base64url");
const SID_RE = /^[A-Za-z0-9_-]{22}$/;

/**
 * Record a signed-out session. Copies of its cookie may have been refreshed (a new expiry,
 * the same sid) up to now, so none can outlive now + the session lifetime: the row is kept
 * until then. Signing out twice is harmless.
 */
export async function revokeSession(db: Db, sid: string, now = new Date()) {
  if (!SID_RE.test(sid)) return;
  await db
    .insert(revokedSessions)
    .values({ sid, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) })
    .onConflictDoNothing();
}

/**
 * Whether a session no longer counts: it was signed out (its id is recorded), its account is
 * gone, or the account's session epoch moved on since it was made (password changed, "sign
 * out everywhere"). One query. A session without a well-formed id (made before sessions
 * had one) counts as ended too.
 */
export async function isSessionEnded(db: Db, s: { sid: unknown; accountId: unknown; epoch: unknown }): Promise<boolean> {
  if (typeof s.sid !== "string" || !SID_RE.test(s.sid) || typeof s.accountId !== "string" || typeof s.epoch !== "number") return true;
  const [row] = await db
    .select({ epoch: accounts.sessionEpoch })
    .from(accounts)
    .where(and(
      eq(accounts.id, s.accountId),
      notExists(db.select({ sid: revokedSessions.sid }).from(revokedSessions).where(eq(revokedSessions.sid, s.sid))),
    ));
  return row?.epoch !== s.epoch;
}

/** Rows of sessions that have expired anyway; called by the periodic sweep. */
export async function purgeRevokedSessions(db: Db, now = new Date()): Promise<number> {
  const r = await db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now)).returning({ sid: revokedSessions.sid });
  return r.length;
}

import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { records } from "@/drizzle/schema";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import type { DbOrTx } from "@/lib/db/client";
import { RECORD_ID_RE } from "@/lib/ids";
import { listedNow } from "@/lib/records/listed-now";
import type { Trust } from "@/lib/trust/decide";
import { judgeFound } from "@/lib/trust/match-trust";

/** What the public directory takes from its query string; anything else is ignored, never an error page. */
export const directoryQuerySchema = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  claim_type: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/).optional().catch(undefined),
  cursor: z.string().regex(RECORD_ID_RE).optional().catch(undefined),
});
export type DirectoryQuery = z.infer<typeof directoryQuerySchema>;

export const DIRECTORY_PAGE = 25;

/** `%`, `_` and `\` in a search are literal. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type DirectoryRow = {
  id: string; claimType: string; subject: string; claim: string; evidenceLevel: string; issuedAt: Date | null; account: AccountProfile;
  /** The one trust decision for the row (lib/trust/decide.ts). */
  trust: Trust;
};

/**
 * The public directory: live, public, active records, newest first, searchable by subject or
 * claim, filterable by claim type, cursor-paginated (the last id of the previous page).
 * Sandbox, private, pending and inactive records never appear (CONTRACT "Directory").
 */
export async function listDirectory(db: DbOrTx, q: DirectoryQuery, now = new Date()) {
  const conds: (SQL | undefined)[] = [listedNow(now)];
  if (q.claim_type) conds.push(eq(records.claimType, q.claim_type));
  if (q.q) {
    const pattern = `%${likeLiteral(q.q)}%`;
    conds.push(or(ilike(records.subject, pattern), ilike(records.claim, pattern)));
  }
  if (q.cursor) {
    const [c] = await db.select({ createdAt: records.createdAt, id: records.id }).from(records).where(eq(records.id, q.cursor));
    if (c) conds.push(or(lt(records.createdAt, c.createdAt), and(eq(records.createdAt, c.createdAt), lt(records.id, c.id))));
  }
  const rows = await db
    .select({
      id: records.id, accountId: records.accountId, claimType: records.claimType, subject: records.subject, claim: records.claim,
      evidenceLevel: records.evidenceLevel, issuedAt: records.issuedAt,
    })
    .from(records)
    .where(and(...conds))
    .orderBy(desc(records.createdAt), desc(records.id))
    .limit(DIRECTORY_PAGE + 1);
  const page = rows.slice(0, DIRECTORY_PAGE);
  const data: DirectoryRow[] = (await judgeFound(db, page, now)).map(({ accountId: _, ...r }) => r);
  return { data, nextCursor: rows.length > DIRECTORY_PAGE ? page.at(-1)!.id : null };
}

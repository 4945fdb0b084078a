import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { records, SEARCH_WORD_GLUE } from "@/drizzle/schema";
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

/**
 * How many of the newest listed records a search reads first: a common word has its page there
 * (and the word index would hand back every one of its matches to be sorted); only a search with
 * fewer matches than a page among them goes to the index, where it is rare enough to be cheap.
 */
export const RECENT_WINDOW = 500;

export type DirectoryRow = {
  id: string; claimType: string; subject: string; claim: string; evidenceLevel: string; issuedAt: Date | null; account: AccountProfile;
  /** The one trust decision for the row (lib/trust/decide.ts). */
  trust: Trust;
};

/** A pasted address searches for its host and path: no scheme, no leading `www.` (records name the domain). */
const searchText = (q: string) => q.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^www\./i, "");

/**
 * The public directory: live, public, active records, newest first, searchable by words,
 * filterable by claim type, cursor-paginated (the last id of the previous page). Sandbox,
 * private, pending and inactive records never appear (CONTRACT "Directory").
 *
 * A search matches records whose subject or claim holds every word of it, in any order,
 * case-insensitive, whole words (records.search_words; a domain's labels are words). Its page
 * is read in one of two ways, both exact: from the newest RECENT_WINDOW listed records when a
 * page of matches is among them, else from the word index (all matches, then sorted).
 */
export async function listDirectory(db: DbOrTx, q: DirectoryQuery, now = new Date()) {
  const after: (SQL | undefined)[] = [listedNow(now)];
  if (q.cursor) {
    const [c] = await db.select({ createdAt: records.createdAt, id: records.id }).from(records).where(eq(records.id, q.cursor));
    if (c) after.push(or(lt(records.createdAt, c.createdAt), and(eq(records.createdAt, c.createdAt), lt(records.id, c.id))));
  }
  const columns = {
    id: records.id, accountId: records.accountId, claimType: records.claimType, subject: records.subject, claim: records.claim,
    evidenceLevel: records.evidenceLevel, issuedAt: records.issuedAt, createdAt: records.createdAt,
  };
  let rows: { id: string; accountId: string; claimType: string; subject: string; claim: string; evidenceLevel: string; issuedAt: Date | null; createdAt: Date }[];
  if (!q.q) {
    rows = await db.select(columns).from(records)
      .where(and(...after, q.claim_type ? eq(records.claimType, q.claim_type) : undefined))
      .orderBy(desc(records.createdAt), desc(records.id)).limit(DIRECTORY_PAGE + 1);
  } else if (!/[\p{L}\p{N}]/u.test(searchText(q.q))) {
    rows = []; // no word to look for
  } else {
    const words = sql`plainto_tsquery('simple'::regconfig, regexp_replace(${searchText(q.q)}, ${SEARCH_WORD_GLUE}, ' ', 'g'))`;
    const matching = and(sql`${records}.search_words @@ ${words}`, q.claim_type ? eq(records.claimType, q.claim_type) : undefined);
    const recent = db.select({ id: records.id }).from(records).where(and(...after))
      .orderBy(desc(records.createdAt), desc(records.id)).limit(RECENT_WINDOW);
    rows = await db.select(columns).from(records).where(and(inArray(records.id, recent), matching))
      .orderBy(desc(records.createdAt), desc(records.id)).limit(DIRECTORY_PAGE + 1);
    if (rows.length <= DIRECTORY_PAGE) {
      // OFFSET 0 keeps the planner from walking the newest-first index with the page's LIMIT in
      // view (a rare word would be looked for in every listed record): the matches come from the
      // word index, and only they are sorted.
      const matches = db.select(columns).from(records).where(and(...after, matching)).offset(0).as("matches");
      rows = await db.select(matches._.selectedFields).from(matches)
        .orderBy(desc(matches.createdAt), desc(matches.id)).limit(DIRECTORY_PAGE + 1);
    }
  }
  const page = rows.slice(0, DIRECTORY_PAGE);
  const data: DirectoryRow[] = (await judgeFound(db, page, now)).map(({ accountId: _, createdAt: __, ...r }) => r);
  return { data, nextCursor: rows.length > DIRECTORY_PAGE ? page.at(-1)!.id : null };
}

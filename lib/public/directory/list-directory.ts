import { and, desc, eq, lt, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { records, SEARCH_WORD_GLUE } from "@/drizzle/schema";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import type { DbOrTx } from "@/lib/db/client";
import { ACCOUNT_ID_RE, RECORD_ID_RE } from "@/lib/ids";
import { listedNow } from "@/lib/record-model/listed-now";
import type { Trust } from "@/lib/trust/decide";
import { borrowedNames } from "@/lib/trust/borrowed-names";
import { judgeFound } from "@/lib/trust/match-trust";
import { verifiedOrganisationsMatching, type DirectoryOrganisation } from "./verified-organisations";

/** What the public directory takes from its query string; anything else is ignored, never an error page. */
export const directoryQuerySchema = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  claim_type: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/).optional().catch(undefined),
  cursor: z.string().regex(RECORD_ID_RE).optional().catch(undefined),
  /** One account's records (a verified organisation's, linked from the head of a search). */
  account: z.string().regex(ACCOUNT_ID_RE).optional().catch(undefined),
});
export type DirectoryQuery = z.infer<typeof directoryQuerySchema>;

export const DIRECTORY_PAGE = 25;

/**
 * How many of the newest listed records a search reads first (it stops at a page of matches): a
 * common word has its page there, where the word index would hand back every one of its matches
 * (50,000 for a word in 1 of 20 names: ~250 ms) to be sorted. A search with some matches among
 * them reads up to WIDE_WINDOW; one with fewer goes to the index, where it is rare enough to be
 * cheap (< 1 ms for a name's number or a domain at a million records).
 */
export const RECENT_WINDOW = 500;
export const WIDE_WINDOW = 10_000;

export type DirectoryRow = {
  id: string; claimType: string; subject: string; claim: string; evidenceLevel: string; issuedAt: Date | null; account: AccountProfile;
  /** The one trust decision for the row (lib/trust/decide.ts). */
  trust: Trust;
  /** The verified organisation whose exact name this record goes under without being it (lib/trust/borrowed-names.ts), or null. */
  notThisOrganisation: string | null;
};

/** A pasted address searches for its host and path: no scheme, no leading `www.` (records name the domain). */
const searchText = (q: string) => q.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^www\./i, "");

/**
 * The public directory: live, public, active records, newest first, searchable by words,
 * filterable by claim type and account, cursor-paginated (the last id of the previous page). Sandbox,
 * private, pending and inactive records never appear (CONTRACT "Directory").
 *
 * A search matches records whose subject or claim holds every word of it, in any order,
 * case-insensitive, whole words (records.search_words; a domain's labels are words). Its page
 * is read in one of three ways, all exact: from the newest RECENT_WINDOW or WIDE_WINDOW listed
 * records when a page of matches is among them, else from the word index (all matches, sorted).
 */
export async function listDirectory(db: DbOrTx, q: DirectoryQuery, now = new Date()): Promise<{ data: DirectoryRow[]; nextCursor: string | null; organisations: DirectoryOrganisation[] }> {
  const after: (SQL | undefined)[] = [listedNow(now), q.account ? eq(records.accountId, q.account) : undefined];
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
    const kind = (claimType: AnyColumn) => (q.claim_type ? eq(claimType, q.claim_type) : undefined);
    /** The newest `window` listed records (after the cursor) that match, newest first: stops at the page's end. */
    const amongNewest = async (window: number) => {
      const recent = db.select({ ...columns, searchWords: sql<string>`${records}.search_words`.as("search_words") }).from(records)
        .where(and(...after)).orderBy(desc(records.createdAt), desc(records.id)).limit(window).as("recent");
      const { searchWords: _, ...fields } = recent._.selectedFields;
      return db.select(fields).from(recent).where(and(sql`${recent.searchWords} @@ ${words}`, kind(recent.claimType)))
        .orderBy(desc(recent.createdAt), desc(recent.id)).limit(DIRECTORY_PAGE + 1);
    };
    rows = await amongNewest(RECENT_WINDOW);
    // A few matches among the newest 500 says the search is common (≥ 0.6 %): a wider window finds
    // its page by reading a few thousand more; none or one or two says it is rare: the index.
    if (rows.length <= DIRECTORY_PAGE && rows.length >= 3) rows = await amongNewest(WIDE_WINDOW);
    if (rows.length <= DIRECTORY_PAGE) {
      // OFFSET 0 keeps the planner from walking the newest-first index with the page's LIMIT in
      // view (a rare word would be looked for in every listed record): the matches come from the
      // word index, and only they are sorted.
      const matches = db.select(columns).from(records).where(and(...after, sql`${records}.search_words @@ ${words}`, kind(records.claimType)))
        .offset(0).as("matches");
      rows = await db.select(matches._.selectedFields).from(matches)
        .orderBy(desc(matches.createdAt), desc(matches.id)).limit(DIRECTORY_PAGE + 1);
    }
  }
  const page = rows.slice(0, DIRECTORY_PAGE);
  const judged = await judgeFound(db, page, now);
  // A search's first page starts with the verified organisations of that name, above records that may only use it.
  const [borrowed, organisations] = await Promise.all([
    borrowedNames(db, judged),
    q.q && !q.cursor && !q.account && /[\p{L}\p{N}]/u.test(searchText(q.q)) ? verifiedOrganisationsMatching(db, searchText(q.q)) : Promise.resolve([]),
  ]);
  const data: DirectoryRow[] = judged.map(({ accountId: _, createdAt: __, ...r }) => ({ ...r, notThisOrganisation: borrowed.get(r.id) ?? null }));
  return { data, nextCursor: rows.length > DIRECTORY_PAGE ? page.at(-1)!.id : null, organisations };
}

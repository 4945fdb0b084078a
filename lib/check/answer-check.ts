import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { records } from "@/drizzle/schema";
import { loadAccountProfiles, type AccountProfile } from "@/lib/accounts/account-profile";
import { companyIdentity } from "@/lib/claims/company-identity";
import { legalNameKey, sameLegalName } from "@/lib/connectors/legal-name";
import type { DbOrTx } from "@/lib/db/client";
import { listedNow } from "@/lib/directory/list-directory";
import { findMatches, type MatchRow } from "@/lib/lookup/find-matches";
import { detect, normalizeAs, type LookupValue } from "@/lib/lookup/normalize";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/records/schemas";
import { recordUrls } from "@/lib/records/urls";

const part = (what: string) =>
  z.string().trim().max(500).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).optional().describe(what);

/** The query of /check and GET /api/v1/check (CONTRACT "Public check"): any subset of the three. */
export const checkQuerySchema = z.strictObject({
  operator: part("Who you are about to pay or deal with, by name."),
  website: part("Their website (any form: https://www.example.com/page, example.com)."),
  payee: part("Where you are asked to pay: an IBAN or a wallet address."),
});
export type CheckQuery = z.output<typeof checkQuerySchema>;

export type Verdict = "match" | "mismatch" | "not_on_record";
export type PartAnswer = {
  given: string;
  normalized: string | null;
  verdict: Verdict;
  /** Whom the record says this belongs to: the operator of a listing, else the account's name. */
  on_record_for: string | null;
  evidence_level: MatchRow["evidenceLevel"] | null;
  verification_id: string | null;
  certificate_url: string | null;
  as_of: string;
};

type Found = MatchRow & { operator: string | null };

/** Who a record names as the one it belongs to: a listing's operator, else the issuing account's name. */
function operatorOf(evidence: Record<string, unknown> | undefined, account: AccountProfile | undefined): string | null {
  return typeof evidence?.operator === "string" ? evidence.operator : (account?.name ?? null);
}

async function withOperators(db: DbOrTx, rows: readonly MatchRow[], now: Date): Promise<Found[]> {
  if (rows.length === 0) return [];
  const [evidence, profiles] = await Promise.all([
    db.select({ id: records.id, evidence: records.evidencePublic }).from(records).where(inArray(records.id, rows.map((r) => r.id))),
    loadAccountProfiles(db, rows.map((r) => r.accountId), now),
  ]);
  const byId = new Map(evidence.map((e) => [e.id, e.evidence]));
  return rows.map((r) => ({ ...r, operator: operatorOf(byId.get(r.id), profiles.get(r.accountId)) }));
}

function verdictFor(given: string, value: LookupValue | null, found: readonly Found[], operator: string | undefined, now: Date): PartAnswer {
  const base = { given, normalized: value?.value ?? null, as_of: now.toISOString() };
  const best = operator ? (found.find((f) => f.operator !== null && sameLegalName(f.operator, operator)) ?? null) : (found[0] ?? null);
  const shown = best ?? found[0] ?? null;
  const verdict: Verdict = found.length === 0 ? "not_on_record" : best ? "match" : "mismatch";
  return {
    ...base, verdict, on_record_for: shown?.operator ?? null, evidence_level: shown?.evidenceLevel ?? null,
    verification_id: shown?.id ?? null, certificate_url: shown ? recordUrls(shown.id).certificate_url : null,
  };
}

async function checkValue(db: DbOrTx, given: string, candidates: LookupValue[], operator: string | undefined, now: Date) {
  const rows = await findMatches(db, candidates, now);
  return verdictFor(given, candidates[0] ?? null, await withOperators(db, rows, now), operator, now);
}

/**
 * The operator on its own: on record when a live, public, active company_identity record
 * names it (legal-name comparison), strongest evidence first.
 */
async function checkOperator(db: DbOrTx, operator: string, now: Date): Promise<PartAnswer> {
  const key = legalNameKey(operator);
  const rows = await db
    .select({ id: records.id, subject: records.subject, evidenceLevel: records.evidenceLevel })
    .from(records)
    .where(and(listedNow(now), eq(records.claimType, companyIdentity.type)))
    .limit(5000);
  const hit = rows.filter((r) => legalNameKey(r.subject) === key).sort((a, b) => (a.evidenceLevel === "participant_attested" ? 1 : 0) - (b.evidenceLevel === "participant_attested" ? 1 : 0))[0];
  return {
    given: operator, normalized: key, verdict: hit ? "match" : "not_on_record", on_record_for: hit?.subject ?? null,
    evidence_level: hit?.evidenceLevel ?? null, verification_id: hit?.id ?? null,
    certificate_url: hit ? recordUrls(hit.id).certificate_url : null, as_of: now.toISOString(),
  };
}

/** Each part given gets a verdict; only live, public, active records count (CONTRACT "Public check"). */
export async function checkParts(db: DbOrTx, q: CheckQuery, now = new Date()) {
  const operator = q.operator || undefined;
  const parts: { operator?: PartAnswer; website?: PartAnswer; payee?: PartAnswer } = {};
  if (operator) parts.operator = await checkOperator(db, operator, now);
  if (q.website) {
    const n = normalizeAs("website", q.website);
    parts.website = "error" in n ? verdictFor(q.website, null, [], operator, now) : await checkValue(db, q.website, [{ kind: "website", value: n.value }], operator, now);
  }
  if (q.payee) {
    const d = detect(q.payee);
    const candidates = "error" in d ? [] : d.candidates.filter((c) => c.kind === "iban" || c.kind === "wallet");
    parts.payee = candidates.length === 0 ? verdictFor(q.payee, null, [], operator, now) : await checkValue(db, q.payee, candidates, operator, now);
  }
  return { operator: operator ?? null, parts, as_of: now.toISOString() };
}

import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { organisations, records } from "@/drizzle/schema";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import { legalIdentityClaimTypes } from "@/lib/claims/registry";
import { editDistance } from "@/lib/claims/nearest-claim-type";
import { legalNameKey } from "@/lib/connectors/legal-name";
import { isValidLei } from "@/lib/connectors/lei-format";
import type { DbOrTx } from "@/lib/db/client";
import { listedNow } from "@/lib/record-model/listed-now";
import { findMatches, type MatchRow } from "@/lib/public/lookup/find-matches";
import { detect, normalizeAs, type LookupValue } from "@/lib/format/normalize";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import { recordUrls } from "@/lib/record-model/urls";
import { composeCheck, type PartName, type PartVerdict, type Verdict } from "@/lib/trust/check-overall";
import { judgeFound, type JudgedRecord } from "@/lib/trust/match-trust";
import { takenDown, type TakenDown } from "@/lib/trust/taken-down";

const part = (what: string) =>
  z.string().trim().max(500).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).optional().describe(what);

/** The query of /check and GET /api/v1/check (CONTRACT "Public check"): any subset of the three. */
export const checkQuerySchema = z.strictObject({
  operator: part("Who you are about to pay or deal with: their legal name, or their LEI."),
  website: part("Their website (any form: https://www.example.com/page, example.com)."),
  payee: part("Where you are asked to pay: an IBAN or a wallet address."),
});
export type CheckQuery = z.output<typeof checkQuerySchema>;

/**
 * CONTRACT "What a public yes requires" → /check. `match`: on record, checked, standing, for a
 * verified organisation whose legal name (or LEI) is the operator asked; `close_match`: the
 * same, but the name differs slightly (the name on record is given); `mismatch`: on record for
 * a verified organisation with another name (named), or — the operator asked being one verified
 * organisation — only through other accounts; `unverified_operator`: on record only
 * through accounts that are not verified organisations (their names are self-declared);
 * `not_on_record`.
 */
export { VERDICTS, type Verdict } from "@/lib/trust/check-overall";

export type PartAnswer = {
  given: string;
  normalized: string | null;
  verdict: Verdict;
  /** The verified organisation's legal name the part is on record for; for `unverified_operator`, the self-declared name. */
  on_record_for: string | null;
  /** Whether `on_record_for` is a verified organisation's legal name (false: the account's own word). */
  name_verified: boolean;
  /** The verified organisation's LEI, when it has one. */
  lei: string | null;
  evidence_level: MatchRow["evidenceLevel"] | null;
  verification_id: string | null;
  certificate_url: string | null;
  /**
   * More than one verified organisation holds the operator's legal name as asked (issue 38,
   * "names are not identities"), so the bare name cannot say which one: the operator part, and a
   * website or payee on record for one of them, are close_match at best; the LEI tells them apart.
   */
  shared_name: boolean;
  /** A record holding this value that Proof Records staff took down (lib/trust/taken-down.ts), or null. */
  taken_down: TakenDown | null;
  as_of: string;
};

/** Two legal names this close (after normalisation) are a likely misspelling of each other, not another company. */
export function closeNames(a: string, b: string): boolean {
  const x = legalNameKey(a);
  const y = legalNameKey(b);
  if (x === y) return false;
  const allowed = Math.min(3, Math.max(1, Math.floor(Math.min(x.length, y.length) / 8)));
  return editDistance(x, y, allowed) <= allowed;
}

type Asked = { name: string; lei: string | null } | null;

function askedOperator(operator: string | undefined): Asked {
  if (!operator) return null;
  const up = operator.trim().toUpperCase();
  return { name: operator, lei: isValidLei(up) ? up : null };
}

const sameOperator = (org: NonNullable<AccountProfile["organisation"]>, asked: NonNullable<Asked>) =>
  asked.lei ? org.lei === asked.lei : legalNameKey(org.legal_name) === legalNameKey(asked.name);

/** A part's answer, and the account of the verified organisation it is on record for (null: none) — for composing the whole. */
type Answered = { answer: PartAnswer; organisation: string | null };

function answer(given: string, normalized: string | null, verdict: Verdict, shown: JudgedRecord<MatchRow> | null, now: Date, sharedName = false): Answered {
  const org = shown?.trust.speaker === "verified_organisation" ? shown.account.organisation : null;
  return { organisation: org ? shown!.accountId : null, answer: {
    given, normalized, verdict,
    on_record_for: org?.legal_name ?? shown?.account.name ?? null,
    name_verified: org !== null,
    lei: org?.lei ?? null,
    evidence_level: shown?.evidenceLevel ?? null,
    verification_id: shown?.id ?? null,
    certificate_url: shown ? recordUrls(shown.id).certificate_url : null,
    shared_name: sharedName,
    taken_down: null,
    as_of: now.toISOString(),
  } };
}

/** The verdict for a website or payee from the records found for it, each judged by the one trust decision. */
/**
 * What the operator part found, for the other parts: `organisation` — the verified
 * organisation's account the operator asked names (one, exactly); `sharedName` — the bare name
 * asked is held by several.
 */
type OperatorFound = { organisation: string | null; sharedName: boolean };

function verdictFor(given: string, value: LookupValue | null, judged: readonly JudgedRecord<MatchRow>[], asked: Asked, now: Date, found: OperatorFound = { organisation: null, sharedName: false }): Answered {
  const normalized = value?.value ?? null;
  // Only checked records that still stand can vouch; a record only stated, or whose part lapsed, never does.
  const standing = judged.filter((r) => r.trust.lookup === "verified" || r.trust.lookup === "checked");
  const byOrg = standing.filter((r) => r.trust.speaker === "verified_organisation");
  if (byOrg.length > 0) {
    if (!asked) return answer(given, normalized, "match", byOrg[0]!, now);
    const same = byOrg.find((r) => sameOperator(r.account.organisation!, asked));
    // A name several verified organisations hold says only "one of them": close_match at best (issue 38).
    if (same && found.sharedName) return answer(given, normalized, "close_match", same, now, true);
    if (same) return answer(given, normalized, "match", same, now);
    const close = asked.lei ? undefined : byOrg.find((r) => closeNames(r.account.organisation!.legal_name, asked.name));
    if (close) return answer(given, normalized, "close_match", close, now);
    return answer(given, normalized, "mismatch", byOrg[0]!, now);
  }
  // The operator asked is a verified organisation, and this is on record only through other accounts — one may even
  // carry its name: not the organisation's (issue 38, "one coherent answer"), never an amber note beside its green.
  if (found.organisation !== null && judged.length > 0) return answer(given, normalized, "mismatch", standing[0] ?? judged[0]!, now);
  if (judged.length > 0) return answer(given, normalized, "unverified_operator", standing[0] ?? judged[0]!, now);
  return answer(given, normalized, "not_on_record", null, now);
}

async function checkValue(db: DbOrTx, given: string, candidates: LookupValue[], asked: Asked, now: Date, found: OperatorFound) {
  const [rows, down] = await Promise.all([findMatches(db, candidates, now), takenDown(db, candidates)]);
  const answered = verdictFor(given, candidates[0] ?? null, await judgeFound(db, rows, now), asked, now, found);
  if (!down) return answered;
  // A take-down keeps warning (issue 38): red, unless a verified organisation vouches for the value now.
  const vouched = answered.answer.verdict === "match" || answered.answer.verdict === "close_match";
  return { ...answered, answer: { ...answered.answer, taken_down: down, verdict: vouched ? answered.answer.verdict : "mismatch" } };
}

/** The company_identity record a verified organisation keeps public for its LEI, to link the operator to; null when none. */
async function organisationRecord(db: DbOrTx, accountId: string, lei: string | null, now: Date) {
  if (!lei) return null;
  const rows = await db
    .select({ id: records.id, evidenceLevel: records.evidenceLevel, evidence: records.evidencePublic })
    .from(records)
    .where(and(listedNow(now), eq(records.accountId, accountId), inArray(records.claimType, legalIdentityClaimTypes())))
    .limit(20);
  return rows.find((r) => r.evidence?.lei === lei && r.evidenceLevel !== "participant_attested") ?? null;
}

/** At most this many verified organisations are compared for a near name (they are reviewer-approved, so few). */
const MAX_CLOSE_SCAN = 5000;

/**
 * The operator on its own: `match` when one verified organisation has this legal name (or LEI);
 * `close_match` with `shared_name` when more than one has it (a bare name is no identity);
 * `close_match` when one has a name a small misspelling away; `unverified_operator` when only
 * accounts that are not verified organisations hold a checked company_identity record of the
 * name; else `not_on_record`.
 */
async function checkOperator(db: DbOrTx, asked: NonNullable<Asked>, now: Date): Promise<Answered> {
  const key = legalNameKey(asked.name);
  const base = { given: asked.name, normalized: asked.lei ?? key, shared_name: false, taken_down: null, as_of: now.toISOString() };
  const verified = eq(organisations.status, "verified");
  // An LEI names one organisation (unique index); a bare name may be held by several (namesakes): two are enough to know.
  const exacts = await db.select().from(organisations)
    .where(and(verified, asked.lei ? eq(organisations.lei, asked.lei) : eq(organisations.nameKey, key)))
    .orderBy(organisations.accountId).limit(2);
  if (exacts.length > 1) {
    return { organisation: null, answer: {
      ...base, verdict: "close_match", on_record_for: exacts[0]!.legalName, name_verified: true, lei: null,
      evidence_level: null, verification_id: null, certificate_url: null, shared_name: true,
    } };
  }
  const exact = exacts[0];
  const close = exact ? undefined : asked.lei ? undefined
    : (await db.select().from(organisations).where(verified).limit(MAX_CLOSE_SCAN)).find((o) => closeNames(o.legalName, asked.name));
  const org = exact ?? close;
  if (org) {
    const rec = await organisationRecord(db, org.accountId, org.lei, now);
    return { organisation: org.accountId, answer: {
      ...base, verdict: exact ? "match" : "close_match", on_record_for: org.legalName, name_verified: true, lei: org.lei,
      evidence_level: rec?.evidenceLevel ?? null, verification_id: rec?.id ?? null,
      certificate_url: rec ? recordUrls(rec.id).certificate_url : null,
    } };
  }
  // Not a verified organisation: a checked company_identity record says only that the name holds an LEI — public data
  // anyone can cite — so the best it earns is amber.
  const rows = await db
    .select({ id: records.id, subject: records.subject, evidenceLevel: records.evidenceLevel, evidence: records.evidencePublic })
    .from(records)
    .where(and(listedNow(now), inArray(records.claimType, legalIdentityClaimTypes())))
    .limit(MAX_CLOSE_SCAN);
  const hit = rows.find((r) => r.evidenceLevel !== "participant_attested" && (asked.lei ? r.evidence?.lei === asked.lei : legalNameKey(r.subject) === key));
  return { organisation: null, answer: {
    ...base, verdict: hit ? "unverified_operator" : "not_on_record", on_record_for: hit?.subject ?? null, name_verified: false, lei: null,
    evidence_level: hit?.evidenceLevel ?? null, verification_id: hit?.id ?? null,
    certificate_url: hit ? recordUrls(hit.id).certificate_url : null,
  } };
}

/**
 * Each part given gets a verdict; only live, public, records that still stand count (CONTRACT
 * "Public check"). The whole — `overall` and its `summary` sentence — is decided by
 * composeCheck from the parts and the organisation each is on record for.
 */
export async function checkParts(db: DbOrTx, q: CheckQuery, now = new Date()) {
  const asked = askedOperator(q.operator || undefined);
  const answered: Partial<Record<PartName, Answered>> = {};
  if (asked) answered.operator = await checkOperator(db, asked, now);
  const op = answered.operator;
  const found: OperatorFound = { organisation: op?.answer.verdict === "match" ? op.organisation : null, sharedName: op?.answer.shared_name ?? false };
  if (q.website) {
    const n = normalizeAs("website", q.website);
    answered.website = "error" in n ? verdictFor(q.website, null, [], asked, now) : await checkValue(db, q.website, [{ kind: "website", value: n.value }], asked, now, found);
  }
  if (q.payee) {
    const d = detect(q.payee);
    const candidates = "error" in d ? [] : d.candidates.filter((c) => c.kind === "iban" || c.kind === "wallet");
    answered.payee = candidates.length === 0 ? verdictFor(q.payee, null, [], asked, now) : await checkValue(db, q.payee, candidates, asked, now, found);
  }
  const parts: { operator?: PartAnswer; website?: PartAnswer; payee?: PartAnswer } = {};
  const verdicts: Partial<Record<PartName, PartVerdict>> = {};
  for (const [k, a] of Object.entries(answered) as [PartName, Answered][]) {
    parts[k] = a.answer;
    verdicts[k] = { ...a.answer, organisation: a.organisation };
  }
  const { overall, summary } = composeCheck(verdicts, asked !== null);
  return { operator: asked?.name ?? null, overall, summary, parts, as_of: now.toISOString() };
}

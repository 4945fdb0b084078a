import { NO_PROFILE, getAccountProfiles, type AccountProfile } from "@/lib/accounts/account-profile";
import type { Db } from "@/lib/db/client";
import { recordUrls } from "@/lib/records/urls";
import { signedAnswer } from "@/lib/signing/canonical";
import { findMatches, MAX_MATCHES, type MatchRow } from "./find-matches";
import type { LookupRequest } from "./lookup-query";

const NO_ACCOUNT: AccountProfile = NO_PROFILE;

/**
 * What a lookup answers, before it is signed (CONTRACT "Lookup"). `type` and `normalized`
 * are the kind and normal form that matched — for a bare token tried as a licence number and
 * as a handle, the first that found something, else the first tried — and `matches` the
 * records found under it. `verified`: at least one match checked against a source or
 * confirmed by a reviewer; `attested`: matches, all of them only stated by their accounts;
 * `no_match`: none. Every match names who made the statement (`account`).
 */
export function lookupFields(req: LookupRequest, rows: readonly MatchRow[], profiles: ReadonlyMap<string, AccountProfile>, now: Date) {
  const chosen = req.candidates.find((c) => rows.some((r) => r.kind === c.kind)) ?? req.candidates[0]!;
  const matches = rows.filter((r) => r.kind === chosen.kind).slice(0, MAX_MATCHES).map((r) => ({
    verification_id: r.id,
    claim_type: r.claimType,
    subject: r.subject,
    status: "active" as const,
    evidence_level: r.evidenceLevel,
    matched_field: r.field,
    certificate_url: recordUrls(r.id).certificate_url,
    account: profiles.get(r.accountId) ?? NO_ACCOUNT,
  }));
  const result = matches.length === 0 ? "no_match" as const
    : matches.some((m) => m.evidence_level !== "participant_attested") ? "verified" as const
    : "attested" as const;
  return { query: req.query, normalized: chosen.value, type: chosen.kind, result, matches, as_of: now.toISOString() };
}

/** The signed answer: the fields, `signing_key_id` and `signature` as the signed status has them (drop `signature`, RFC 8785, Ed25519). */
export async function answerLookup(db: Db, req: LookupRequest, now = new Date()): Promise<string> {
  const rows = await findMatches(db, req.candidates, now);
  const profiles = rows.length ? await getAccountProfiles(db, rows.map((r) => r.accountId)) : new Map<string, AccountProfile>();
  return signedAnswer(lookupFields(req, rows, profiles, now), "signature");
}

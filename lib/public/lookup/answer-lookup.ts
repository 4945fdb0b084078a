import type { Db } from "@/lib/db/client";
import { recordUrls } from "@/lib/record-model/urls";
import { signedAnswer } from "@/lib/signing/canonical";
import { LOOKUP_RANK } from "@/lib/trust/decide";
import { judgeFound, type JudgedRecord } from "@/lib/trust/match-trust";
import { takenDown, type TakenDown } from "@/lib/trust/taken-down";
import { findMatches, MAX_MATCHES, type MatchRow } from "./find-matches";
import type { LookupRequest } from "./lookup-query";

/**
 * What a lookup answers, before it is signed (CONTRACT "Lookup", "What a public yes
 * requires"). `type` and `normalized` are the kind and normal form that matched — for a bare
 * token tried as a licence number and as a handle, the first that found something, else the
 * first tried — and `matches` the records found under it that still stand (a record whose part
 * lapsed is no match). `result` is the strongest any match earns in the one trust decision
 * (lib/trust/decide.ts): `verified` — checked, standing, and by a verified organisation;
 * `checked` — checked and standing, but no account behind them is a verified organisation;
 * `attested` — only stated by their accounts; `no_match`. Every match names who made the
 * statement (`account`, with `name_verified`). `taken_down`: the latest record holding the value
 * that Proof Records staff revoked (lib/trust/taken-down.ts), or null — a warning that stays.
 */
export function lookupFields(req: LookupRequest, judged: readonly JudgedRecord<MatchRow>[], now: Date, down: TakenDown | null = null) {
  const standing = judged.filter((r) => r.trust.lookup !== null);
  const chosen = req.candidates.find((c) => standing.some((r) => r.kind === c.kind)) ?? req.candidates[0]!;
  const found = standing.filter((r) => r.kind === chosen.kind).slice(0, MAX_MATCHES);
  const matches = found.map((r) => ({
    verification_id: r.id,
    claim_type: r.claimType,
    subject: r.subject,
    status: "active" as const,
    evidence_level: r.evidenceLevel,
    matched_field: r.field,
    certificate_url: recordUrls(r.id).certificate_url,
    account: r.account,
  }));
  const best = Math.max(0, ...found.map((r) => LOOKUP_RANK[r.trust.lookup!]));
  const result = best === 3 ? "verified" as const : best === 2 ? "checked" as const : best === 1 ? "attested" as const : "no_match" as const;
  return { query: req.query, normalized: chosen.value, type: chosen.kind, result, matches, taken_down: down, as_of: now.toISOString() };
}

/** The lookup's answer, unsigned: what the API signs and the home page shows (app/page.tsx), from the one trust decision. */
export async function lookupAnswer(db: Db, req: LookupRequest, now = new Date()) {
  const [rows, down] = await Promise.all([findMatches(db, req.candidates, now), takenDown(db, req.candidates)]);
  return lookupFields(req, await judgeFound(db, rows, now), now, down);
}

export type LookupAnswer = Awaited<ReturnType<typeof lookupAnswer>>;

/** The signed answer: the fields, `signing_key_id` and `signature` as the signed status has them (drop `signature`, RFC 8785, Ed25519). */
export async function answerLookup(db: Db, req: LookupRequest, now = new Date()): Promise<string> {
  return signedAnswer(await lookupAnswer(db, req, now), "signature");
}

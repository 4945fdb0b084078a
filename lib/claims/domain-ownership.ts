import { z } from "zod";
import { domainChallenges } from "@/drizzle/schema";
import { consumeChallenge, loadChallenge } from "@/lib/challenges/challenge-store";
import { resolveTxt } from "@/lib/connectors/dns";
import type { Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { DOMAIN_CHALLENGE_ID_RE } from "@/lib/ids";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { evidenceRules, withEvidence } from "./field-rules";
import type { EvidenceLevel } from "@/lib/record-model/schemas";
import type { ClaimModule } from "./types";

const LEVELS: readonly EvidenceLevel[] = ["source_verified"];

export const domainEvidence = z.strictObject({ challenge_id: z.string().regex(DOMAIN_CHALLENGE_ID_RE) }).meta({ id: "DomainOwnershipEvidence" });

/**
 * domain_ownership: control of DNS for the domain, shown by the challenge's TXT record.
 * The TXT name and value stay on the certificate so anyone can re-check them, and a
 * periodic re-check suspends the record when the record is gone.
 */
export const domainOwnership: ClaimModule = {
  type: "domain_ownership",
  docs: {
    describe:
      "`domain_ownership`: `{challenge_id}` (schema DomainOwnershipEvidence) of a domain challenge (POST /api/v1/domain-challenges) " +
      "whose TXT record is published; the subject is the domain; issued at source_verified and re-checked periodically. " +
      "A DNS resolver that does not answer gives 202 pending_review.",
    evidenceSchema: domainEvidence,
    errors: ["challenge_not_found", "challenge_expired", "challenge_used", "subject_mismatch", "dns_record_not_found", "field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "Domain control, after publishing the challenge's TXT record (201)",
      value: {
        subject: "example.com", claim_type: "domain_ownership", claim: "Acme Trading Ltd controls the DNS of example.com.",
        evidence: { challenge_id: "dch_4mQ0xVb1sWk9cJ2tRz7a" },
      },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "Domain ownership",
      summary: "Control of a domain's DNS, shown by a TXT record you publish. It needs a challenge first: the Proofs page walks you through it.",
      href: "/proofs#domain",
    },
    validate: (input) => evidenceRules(input, "domain_ownership", domainEvidence, LEVELS),
  },
  check: withEvidence(domainEvidence, async (input, { challenge_id }, { auth, now, db }) => {
    const loaded = await loadChallenge(db, domainChallenges, auth, challenge_id, now);
    if ("error" in loaded) return { kind: "fail", error: loaded.error! };
    const ch = loaded.row;
    const subject = normalizeDomain(input.subject, "subject");
    if ("error" in subject || subject.domain !== ch.domain) {
      return { kind: "fail", error: { code: "subject_mismatch", param: "subject", message: `The subject must be the challenge's domain, ${ch.domain}.` } };
    }
    const evidence = { challenge_id, domain: ch.domain, txt_name: ch.txtName, txt_value: ch.txtValue, checked_at: now.toISOString() };
    const commit = (tx: Tx, recordId: string) => consumeChallenge(tx, domainChallenges, ch.id, recordId);
    const lookup = await resolveTxt(ch.txtName);
    if (lookup.kind === "unreachable") {
      return { kind: "review", evidenceLevel: "evidence_verified", reason: `${lookup.reason} A reviewer confirms the TXT record instead.`, publicEvidence: evidence, commit };
    }
    if (lookup.kind === "not_found" || !lookup.value.includes(ch.txtValue)) {
      const seen = lookup.kind === "found" ? ` Found ${lookup.value.length} TXT value(s), none equal to the challenge's.` : "";
      return {
        kind: "fail",
        error: { code: "dns_record_not_found", param: "evidence.challenge_id", message: `Publish TXT ${ch.txtName} = "${ch.txtValue}" and try again.${seen}` },
      };
    }
    return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: evidence, commit };
  }),
  checking: {
    async recheck(evidence, now) {
      const again = await askTxtAgain(evidence);
      if (again.kind === "unreachable") return again;
      if (again.kind === "absent") return { kind: "fail", reason: `DNS answered, but TXT ${again.txtName} does not hold "${again.txtValue}".` };
      return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: { ...evidence, checked_at: now.toISOString() } };
    },
  },
  review: {
    checklist: [
      { key: "txt_found", label: "With a resolver of my own, the TXT record at txt_name holds txt_value exactly.", fields: ["evidence.txt_name", "evidence.txt_value"] },
      { key: "domain_matches", label: "The domain in the evidence is the record's subject.", fields: ["evidence.domain", "subject"] },
    ],
  },
  view: {
    lookupValues: (subject) => [{ kind: "website", value: subject, field: "subject" }],
    /** Control of the domain, asked of DNS at the challenge's TXT name. */
    facts: (subject, evidence) => [
      { fact: "domain_control", by: "source", source: `DNS TXT ${typeof evidence.txt_name === "string" ? evidence.txt_name : `_prs-challenge.${subject}`}` },
    ],
  },
  policy: {
    recheck: {
      kind: "monitor",
      intervalMs: () => getEnv().RECHECK_INTERVAL_MS,
      async run(evidence) {
        const again = await askTxtAgain(evidence);
        if (again.kind === "unreachable") return again;
        if (again.kind === "published") return { kind: "holds" };
        return { kind: "lapsed", reason: `The TXT record ${again.txtName} = "${again.txtValue}" is no longer published.` };
      },
    },
  },
  capabilities: {
    proves: "account_domain",
  },
  challenge: {
    kind: "domain",
    primary: { proofRequest: ({ subject, challengeId }) => ({ subject, claim: `Controls DNS for ${subject}.`, evidence: { challenge_id: challengeId } }) },
  },
};

/** Ask DNS again for the TXT record a record's (or submission's) evidence names. */
async function askTxtAgain(evidence: Record<string, unknown>) {
  const txtName = String(evidence.txt_name ?? "");
  const txtValue = String(evidence.txt_value ?? "");
  const lookup = await resolveTxt(txtName);
  if (lookup.kind === "unreachable") return { kind: "unreachable" as const, reason: lookup.reason };
  const published = lookup.kind === "found" && lookup.value.includes(txtValue);
  return { kind: published ? ("published" as const) : ("absent" as const), txtName, txtValue };
}

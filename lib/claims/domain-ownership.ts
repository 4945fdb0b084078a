import { z } from "zod";
import { domainChallenges } from "@/drizzle/schema";
import { consumeChallenge, loadChallenge } from "@/lib/challenges/challenges";
import { resolveTxt } from "@/lib/connectors/dns";
import type { Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { DOMAIN_CHALLENGE_ID_RE } from "@/lib/ids";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { evidenceRules } from "./field-rules";
import type { ClaimModule } from "./types";

export const domainEvidence = z.strictObject({ challenge_id: z.string().regex(DOMAIN_CHALLENGE_ID_RE) }).meta({ id: "DomainOwnershipEvidence" });

/**
 * domain_ownership: control of DNS for the domain, shown by the challenge's TXT record.
 * The TXT name and value stay on the certificate so anyone can re-check them, and a
 * periodic re-check suspends the record when the record is gone.
 */
export const domainOwnership: ClaimModule = {
  validate: (input) => evidenceRules(input, "domain_ownership", domainEvidence, ["source_verified"]),
  async check(input, { auth, now, db }) {
    const { challenge_id } = input.evidence as z.infer<typeof domainEvidence>;
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
      return { kind: "review", evidenceLevel: "source_verified", reason: `${lookup.reason} A reviewer confirms the TXT record instead.`, publicEvidence: evidence, commit };
    }
    if (lookup.kind === "not_found" || !lookup.values.includes(ch.txtValue)) {
      const seen = lookup.kind === "found" ? ` Found ${lookup.values.length} TXT value(s), none equal to the challenge's.` : "";
      return {
        kind: "fail",
        error: { code: "dns_record_not_found", param: "evidence.challenge_id", message: `Publish TXT ${ch.txtName} = "${ch.txtValue}" and try again.${seen}` },
      };
    }
    return {
      kind: "issue", evidenceLevel: "source_verified", publicEvidence: evidence, commit,
      recheckAt: new Date(now.getTime() + getEnv().DOMAIN_RECHECK_INTERVAL_MS),
    };
  },
  recheckIntervalMs: () => getEnv().DOMAIN_RECHECK_INTERVAL_MS,
  async recheck(evidence, now) {
    const txtName = String(evidence.txt_name ?? "");
    const txtValue = String(evidence.txt_value ?? "");
    const lookup = await resolveTxt(txtName);
    if (lookup.kind === "unreachable") return { kind: "unreachable", reason: lookup.reason };
    if (lookup.kind === "not_found" || !lookup.values.includes(txtValue)) {
      return { kind: "fail", reason: `DNS answered, but TXT ${txtName} does not hold "${txtValue}".` };
    }
    return {
      kind: "issue", evidenceLevel: "source_verified", publicEvidence: { ...evidence, checked_at: now.toISOString() },
      recheckAt: new Date(now.getTime() + getEnv().DOMAIN_RECHECK_INTERVAL_MS),
    };
  },
};

import { z } from "zod";
import { lookupLei, type LeiRecord } from "@/lib/connectors/lei";
import { isValidLei } from "@/lib/connectors/lei-format";
import { sameLegalName } from "@/lib/connectors/legal-name";
import { getEnv } from "@/lib/env";
import type { FieldError } from "@/lib/http/errors";
import { evidenceRules, withEvidence } from "./field-rules";
import type { EvidenceLevel } from "@/lib/record-model/schemas";
import type { CheckOutcome, ClaimModule, MonitorOutcome, RecheckOutcome } from "./types";

const LEVELS: readonly EvidenceLevel[] = ["source_verified"];

export const companyIdentityEvidence = z
  .strictObject({ lei: z.string().min(1).max(40).describe("The entity's Legal Entity Identifier (ISO 17442): 20 characters.") })
  .meta({ id: "CompanyIdentityEvidence" });

/** The source company_identity's facts are asked of. */
const LEI_REGISTER = "GLEIF LEI register";
const registerUrl = (lei: string) => `https://search.gleif.org/#/record/${lei}`;
const leiOf = (evidence: Record<string, unknown>) => String(evidence.lei ?? "").trim().toUpperCase();

/** The register's answer judged as CONTRACT says: active, and the subject is its legal name. */
function judge(rec: LeiRecord, subject: string, now: Date): { ok: true; evidence: Record<string, unknown> } | { ok: false; error: FieldError } {
  if (rec.registrationStatus !== "ISSUED" || rec.entityStatus !== "ACTIVE") {
    return { ok: false, error: { code: "lei_not_active", param: "evidence.lei", message: notActive(rec) } };
  }
  if (!sameLegalName(subject, rec.legalName)) {
    return {
      ok: false,
      error: { code: "subject_mismatch", param: "subject", message: `The LEI register names ${rec.lei} "${rec.legalName}"; the subject must be that legal name.` },
    };
  }
  return {
    ok: true,
    evidence: {
      lei: rec.lei, legal_name: rec.legalName, jurisdiction: rec.jurisdiction, registration_status: rec.registrationStatus,
      entity_status: rec.entityStatus, next_renewal_date: rec.nextRenewalDate, register_url: registerUrl(rec.lei), checked_at: now.toISOString(),
    },
  };
}

const notActive = (rec: LeiRecord) =>
  `The LEI register shows ${rec.lei} with registration status ${rec.registrationStatus} and entity status ${rec.entityStatus}; ` +
  "a record needs ISSUED and ACTIVE.";

/**
 * company_identity: that a legal entity with this exact legal name holds an issued LEI and
 * is active, as the LEI register (GLEIF) answers. Re-checked every RECHECK_INTERVAL_MS:
 * a lapsed registration or an inactive entity suspends the record, a renewal reinstates it.
 */
export const companyIdentity: ClaimModule = {
  type: "company_identity",
  docs: {
    describe:
      "`company_identity`: `{lei}` (schema CompanyIdentityEvidence); the subject is the entity's legal name as the LEI register " +
      "spells it (compared after NFKC, case folding and white-space collapsing); issued at source_verified when the registration is " +
      "ISSUED and the entity ACTIVE, and re-checked periodically. A register that does not answer gives 202 pending_review.",
    evidenceSchema: companyIdentityEvidence,
    errors: ["invalid_lei", "lei_not_found", "lei_not_active", "subject_mismatch", "field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "A company's LEI identity, from the LEI register (201)",
      value: { subject: "Acme Widgets Limited", claim_type: "company_identity", claim: "Acme Widgets Limited holds an active LEI.", evidence: { lei: "5493001KJTIIGC8Y1R12" } },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "Company identity, checked against the LEI register",
      summary: "That a company with this legal name holds an active LEI, as the LEI register (GLEIF) answers. Re-checked periodically.",
      fields: {
        subject: { label: "Legal name", help: "The entity's legal name exactly as the LEI register spells it.", placeholder: "Acme Widgets Limited" },
        claim: { placeholder: "Acme Widgets Limited holds an active LEI." },
        "evidence.lei": { label: "LEI", placeholder: "20 letters and digits" },
      },
    },
    validate(input) {
      const rules = evidenceRules(input, "company_identity", companyIdentityEvidence, LEVELS);
      if (rules) return rules;
      const lei = leiOf(input.evidence ?? {});
      if (!isValidLei(lei)) {
        return { code: "invalid_lei", param: "evidence.lei", message: "'evidence.lei' is not an LEI: 20 letters and digits ending in two ISO 17442 check digits." };
      }
      return null;
    },
  },
  check: withEvidence(companyIdentityEvidence, async (input, evidence, { now }): Promise<CheckOutcome> => {
    const lei = leiOf(evidence);
    const found = await lookupLei(lei);
    if (found.kind === "unreachable") {
      return { kind: "review", evidenceLevel: "evidence_verified", reason: `${found.reason} A reviewer, or a re-run once it answers, confirms it instead.`, publicEvidence: { lei } };
    }
    if (found.kind === "not_found") return { kind: "fail", error: { code: "lei_not_found", param: "evidence.lei", message: `The LEI register has no record for ${lei}.` } };
    const judged = judge(found.value, input.subject, now);
    if (!judged.ok) return { kind: "fail", error: judged.error };
    return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: judged.evidence };
  }),
  checking: {
    async recheck(evidence, now, record): Promise<RecheckOutcome> {
      const found = await lookupLei(leiOf(evidence));
      if (found.kind === "unreachable") return found;
      if (found.kind === "not_found") return { kind: "fail", reason: `The LEI register has no record for ${leiOf(evidence)}.` };
      const judged = judge(found.value, record.subject, now);
      if (!judged.ok) return { kind: "fail", reason: judged.error.message };
      return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: judged.evidence };
    },
  },
  review: {
    checklist: [
      { key: "register_checked", label: "In the LEI register (search.gleif.org) the LEI is ISSUED and the entity ACTIVE.", fields: ["evidence.lei"] },
      { key: "name_matches", label: "The register's legal name is the record's subject.", fields: ["subject", "evidence.lei"] },
    ],
  },
  view: {
    /** The entity's legal name (the subject) and its LEI. */
    namedValues: (subject, evidence) => [
      { kind: "name", value: subject, field: "subject" },
      ...(leiOf(evidence) ? [{ kind: "lei" as const, value: leiOf(evidence), field: "evidence.lei" }] : []),
    ],
    /** The register says the LEI is issued and the entity active, under the subject's legal name. */
    facts: () => [
      { fact: "lei_active", by: "source", source: LEI_REGISTER },
      { fact: "legal_name", by: "source", source: LEI_REGISTER },
    ],
  },
  policy: {
    recheck: {
      kind: "monitor",
      intervalMs: () => getEnv().RECHECK_INTERVAL_MS,
      async run(evidence): Promise<MonitorOutcome> {
        const found = await lookupLei(leiOf(evidence));
        if (found.kind === "unreachable") return found;
        if (found.kind === "not_found") return { kind: "lapsed", reason: `The LEI register no longer has a record for ${leiOf(evidence)}.` };
        const rec = found.value;
        if (rec.registrationStatus !== "ISSUED" || rec.entityStatus !== "ACTIVE") return { kind: "lapsed", reason: notActive(rec) };
        return { kind: "holds" };
      },
    },
  },
  capabilities: {
    proves: "legal_identity",
  },
};

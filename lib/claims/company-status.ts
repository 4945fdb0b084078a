import type { EvidenceLevel } from "@/lib/record-model/schemas";
import type { ClaimModule } from "./types";
import { onlyLevels, refuseSourceFields } from "./field-rules";

const LEVELS: readonly EvidenceLevel[] = ["participant_attested"];

/** company_status: the participant's own statement; nothing is checked, and the record says so. */
export const companyStatus: ClaimModule = {
  type: "company_status",
  docs: {
    describe: "`company_status`: no evidence; issued at once at participant_attested (the participant's own statement).",
    errors: ["field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "Participant-attested company status (201)",
      value: { subject: "Acme Trading Ltd", claim_type: "company_status", claim: "Acme Trading Ltd is an active company.", visibility: "public" },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "Company status, stated by you",
      summary: "Your own statement about a company, signed as you made it. Nothing is checked: the certificate says so. Issued at once.",
      fields: {
        subject: { help: "The company's name.", placeholder: "Acme Trading Ltd" },
        claim: { help: "What you state about it, in one or two sentences.", placeholder: "Acme Trading Ltd is an active company in good standing." },
      },
    },
    validate(input) {
      if (input.evidence && Object.keys(input.evidence).length > 0) {
        const [k] = Object.keys(input.evidence);
        return { code: "unknown_field", param: `evidence.${k}`, message: "company_status takes no evidence." };
      }
      return refuseSourceFields(input, "company_status") ?? onlyLevels(input, LEVELS, "company_status");
    },
  },
  async check() {
    return { kind: "issue", evidenceLevel: "participant_attested", publicEvidence: {} };
  },
  checking: {
    offline: true,
  },
  view: {
    /** The company the statement is about: impersonation watches on that name compare with it. */
    namedValues: (subject) => [{ kind: "name", value: subject, field: "subject" }],
  },
};

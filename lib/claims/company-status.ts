import type { ClaimModule } from "./types";
import { onlyLevels, refuseSourceFields } from "./field-rules";

/** company_status: the participant's own statement; nothing is checked, and the record says so. */
export const companyStatus: ClaimModule = {
  offline: true,
  validate(input) {
    if (input.evidence && Object.keys(input.evidence).length > 0) {
      const [k] = Object.keys(input.evidence);
      return { code: "unknown_field", param: `evidence.${k}`, message: "company_status takes no evidence." };
    }
    return refuseSourceFields(input, "company_status") ?? onlyLevels(input, ["participant_attested"], "company_status");
  },
  async check() {
    return { kind: "issue", evidenceLevel: "participant_attested", publicEvidence: {} };
  },
};

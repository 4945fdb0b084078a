import { z } from "zod";
import { fieldErrors } from "@/lib/http/validation";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText, type EvidenceLevel } from "@/lib/record-model/schemas";
import type { ClaimModule } from "./types";
import { onlyLevels } from "./field-rules";

const shown = (max: number) => z.string().trim().min(1).max(max).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN);

/**
 * A licence the reviewed claim states (`evidence.licence`): published with the record, so a
 * listing can rest on it once a reviewer confirmed it (verified_listing's `licence_record`).
 */
export const statedLicence = z.strictObject({ authority: shown(200), number: shown(100) });

const SKEW_MS = 5 * 60_000;
const LEVELS: readonly EvidenceLevel[] = ["evidence_verified"];

/**
 * Any claim type without a connector: the customer names the source they checked
 * (source_name, source_url, checked_at) and a reviewer confirms it. It issues as
 * evidence_verified only after that confirmation. Extra `evidence` is kept for the
 * reviewer and never published — except `licence {authority, number}`, the licence the
 * claim is about, which the certificate shows and a listing may rest on.
 */
export const manualReview: ClaimModule = {
  /** Stands for every claim type without a module of its own. */
  type: "*",
  docs: {
    describe: "Any other claim type takes source_name, source_url and checked_at and goes to review (202); issued at evidence_verified once a reviewer confirms it.",
    errors: ["missing_evidence", "evidence_level_not_allowed"],
    example: {
      summary: "Any other claim type, confirmed by a reviewer (202)",
      value: {
        subject: "Acme Trading Ltd", claim_type: "press_coverage", claim: "Acme Trading Ltd was featured in the Financial Times.",
        source_name: "Financial Times", source_url: "https://www.ft.com/content/acme-trading", checked_at: "2026-01-30T09:00:00Z",
      },
    },
  },
  request: {
    /** Credentials pasted as "further evidence" for the reviewer are never kept. */
    secrets: ["api_key", "api_secret", "secret", "secret_key", "password", "passphrase", "private_key", "seed_phrase", "mnemonic", "access_token"],
    levels: LEVELS,
    form: {
      label: "Another claim, checked by a reviewer",
      summary: "Any other claim: name the source you checked, and a Proof Records reviewer confirms it before anything is issued.",
      namesItsType: true,
      requestFields: ["source_name", "source_url", "checked_at"],
      fields: {
        claim_type: { label: "Claim type", help: "A short name for this kind of claim: lower-case letters, digits and underscores.", placeholder: "press_coverage" },
        subject: { placeholder: "Acme Trading Ltd" },
        claim: { placeholder: "Acme Trading Ltd was featured in the Financial Times." },
        source_name: { label: "Source", help: "Who or what says so: the publication, register or document the reviewer will check.", placeholder: "Financial Times" },
        source_url: { label: "Source address", help: "Where the reviewer can see it (http or https).", placeholder: "https://" },
        checked_at: { label: "Checked at (UTC)", help: "When you last saw the source say so; not in the future." },
      },
      documents: { help: "Anything that lets the reviewer confirm the claim beyond the source's address: a licence, a registry extract, a letter." },
    },
    validate(input) {
      for (const f of ["source_name", "source_url", "checked_at"] as const) {
        if (input[f] === undefined) {
          return { code: "missing_evidence", param: f, message: `'${f}' is required for a claim type checked by a reviewer.` };
        }
      }
      if (Date.parse(input.checked_at!) > Date.now() + SKEW_MS) {
        return { code: "invalid_value", param: "checked_at", message: "'checked_at' lies in the future." };
      }
      if (input.evidence?.licence !== undefined) {
        const licence = statedLicence.safeParse(input.evidence.licence);
        if (!licence.success) return fieldErrors(licence.error, input.evidence.licence, "evidence.licence")[0]!;
      }
      return onlyLevels(input, LEVELS, input.claim_type);
    },
  },
  async check(input) {
    const { licence, ...rest } = input.evidence ?? {};
    const stated = licence === undefined ? undefined : statedLicence.parse(licence);
    return {
      kind: "review",
      evidenceLevel: "evidence_verified",
      reason: `No automatic check for this kind of claim (${input.claim_type}): a reviewer confirms it against the source you named.`,
      publicEvidence: {
        source_name: input.source_name,
        source_url: input.source_url,
        checked_at: new Date(input.checked_at!).toISOString(),
        ...(stated && { licence: stated }),
      },
      privateEvidence: Object.keys(rest).length > 0 ? { submitted: rest } : undefined,
    };
  },
  checking: {
    offline: true,
  },
};

import { getEnv } from "@/lib/env";

export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";

/** The PRS JSON-LD context: served at this URL (app/ns/credentials/v1) and never changed once published. */
export const prsContextUrl = (base = getEnv().publicBaseUrl) => `${base}/ns/credentials/v1`;

/** The record fields a ProofRecordCredential's subject carries (record-credential.ts), in the order shown. */
export const SUBJECT_TERMS = [
  "verification_id", "environment", "subject", "claim_type", "claim", "evidence_level", "account_name", "account_name_verified",
  "checks", "certificate_url",
] as const;

/**
 * Every term a ProofRecordCredential uses beyond the VC 2.0 context, defined (and protected)
 * so a JSON-LD processor expands the credential without dropping or guessing anything.
 * Field names are the API's own (snake_case), under the vocabulary `<base>/ns/credentials/v1#`.
 */
export function prsContext(base = getEnv().publicBaseUrl) {
  const vocab = `${prsContextUrl(base)}#`;
  const terms: Record<string, unknown> = Object.fromEntries(SUBJECT_TERMS.map((t) => [t, `${vocab}${t}`]));
  terms.certificate_url = { "@id": `${vocab}certificate_url`, "@type": "@id" };
  // Added after v1 was first published, additively (no earlier term changed): a JSON literal, kept exactly as the API has it.
  terms.checks = { "@id": `${vocab}checks`, "@type": "@json" };
  return {
    "@context": {
      "@protected": true,
      ProofRecordCredential: `${vocab}ProofRecordCredential`,
      ProofRecord: `${vocab}ProofRecord`,
      ...terms,
    },
  };
}

import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getPublicView, type PublicView } from "@/lib/public/record/public-view";
import { recordUrls } from "@/lib/record-model/urls";
import { keyring, sandboxSigningKey } from "@/lib/signing/keys";
import { LIST_BITS } from "./bitstring";
import { prsContextUrl, VC_V2_CONTEXT } from "./context";
import { issuerDid } from "./did";
import { signEddsaJcs2022 } from "./eddsa-jcs-2022";
import { STATUS_PURPOSES, statusIndexOf, statusListUrl } from "./status-list";

export const credentialUrl = (id: string, base = getEnv().publicBaseUrl) => `${base}/api/v1/records/${id}/vc`;

/**
 * A record as a W3C Verifiable Credential (Data Model 2.0), from its one public view: what was
 * issued (subject, claim, level, who said it), valid from issue to `expires_at`; its standing
 * now is in the two status lists its `credentialStatus` points at, not in the credential.
 * A sandbox record says so in its `name` and `environment`, and is issued by the sandbox issuer
 * (did:web:<host>:sandbox, sandbox keys, sandbox status lists): a verifier trusting the live
 * issuer never accepts it.
 */
export function recordCredential(view: PublicView, statusIndex: number) {
  const { row } = view;
  const list = Math.floor(statusIndex / LIST_BITS);
  const position = String(statusIndex % LIST_BITS);
  const sandbox = row.environment === "sandbox";
  const env = row.environment;
  return {
    "@context": [VC_V2_CONTEXT, prsContextUrl()],
    id: credentialUrl(row.id),
    type: ["VerifiableCredential", "ProofRecordCredential"],
    name: sandbox ? `Sandbox record ${row.id} (test data, not verified)` : `Proof record ${row.id}`,
    issuer: issuerDid(env),
    validFrom: row.issuedAt!.toISOString(),
    ...(row.expiresAt && { validUntil: row.expiresAt.toISOString() }),
    credentialSubject: {
      type: "ProofRecord",
      verification_id: row.id,
      environment: row.environment,
      subject: row.subject,
      claim_type: row.claimType,
      claim: row.claim,
      evidence_level: row.evidenceLevel,
      ...(view.account.name !== null && { account_name: view.account.name, account_name_verified: view.account.name_verified }),
      checks: view.checks,
      certificate_url: recordUrls(row.id).certificate_url,
    },
    credentialStatus: STATUS_PURPOSES.map((purpose) => ({
      id: `${statusListUrl(purpose, list, env)}#${position}`,
      type: "BitstringStatusListEntry",
      statusPurpose: purpose,
      statusListIndex: position,
      statusListCredential: statusListUrl(purpose, list, env),
    })),
  };
}

/** The signed credential of an issued record (eddsa-jcs-2022, its issuer's active key, `created` now); null when there is none. */
export async function getRecordCredential(db: Db, id: string): Promise<string | null> {
  const view = await getPublicView(db, id);
  if (!view) return null;
  const index = await statusIndexOf(db, id);
  const key = view.row.environment === "sandbox" ? sandboxSigningKey() : keyring().active;
  return JSON.stringify(signEddsaJcs2022(recordCredential(view, index), new Date(view.now), key));
}

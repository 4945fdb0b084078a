import { getEnv } from "@/lib/env";
import { signJson } from "@/lib/signing/canonical";
import { claimModuleFor } from "@/lib/claims/registry";
import { checksOf } from "@/lib/trust/checks";

type Signed = {
  id: string; environment: string; subject: string; claimType: string; claim: string; evidenceLevel: string;
  evidence: Record<string, unknown>; issuedAt: Date; validFrom: Date; expiresAt: Date | null;
  /** The issuing account's organisation name at the moment of issue (null: none set). */
  accountName: string | null;
};

/** Exactly what a record's signature covers (CONTRACT, Records). */
export function buildSignedPayload(r: Signed) {
  return {
    id: r.id,
    environment: r.environment,
    subject: r.subject,
    claim_type: r.claimType,
    claim: r.claim,
    evidence_level: r.evidenceLevel,
    evidence: r.evidence,
    issued_at: r.issuedAt.toISOString(),
    valid_from: r.validFrom.toISOString(),
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
    /** Who made the statement: the account's organisation name when it was issued. */
    account: { name: r.accountName },
    /** What was checked, by whom (lib/trust/checks.ts): signed by records issued since organisations were verified. */
    checks: checksOf({ evidenceLevel: r.evidenceLevel, subject: r.subject, evidence: r.evidence, at: r.issuedAt }, claimModuleFor(r.claimType)),
    issuer: getEnv().publicBaseUrl,
  };
}

/**
 * The columns a record gets when it is issued at `at` (valid from then): its signed payload
 * and the signature over it. One place for an automatic issue and a reviewer's approval.
 */
export function signIssue(r: Omit<Signed, "issuedAt" | "validFrom">, at: Date) {
  const signedPayload = buildSignedPayload({ ...r, issuedAt: at, validFrom: at });
  const sig = signJson(signedPayload);
  return {
    issuedAt: at, validFrom: at, expiresAt: r.expiresAt,
    signingKeyId: sig.kid, payloadSha256: sig.payloadSha256, signature: sig.signature, signedPayload,
  };
}

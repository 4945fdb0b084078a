import { getEnv } from "@/lib/env";

/** Exactly what a record's signature covers (CONTRACT, Records). */
export function buildSignedPayload(r: {
  id: string; environment: string; subject: string; claimType: string; claim: string; evidenceLevel: string;
  evidence: Record<string, unknown>; issuedAt: Date; validFrom: Date; expiresAt: Date | null;
}) {
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
    issuer: getEnv().publicBaseUrl,
  };
}

import type { recordHistory, records } from "@/drizzle/schema";
import { effectiveStatus, isIssued } from "./effective-status";
import { recordUrls } from "./urls";

export type RecordRow = typeof records.$inferSelect;
export type HistoryRow = typeof recordHistory.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Who moved a record, as shown to clients: the kind of actor, never an internal id. */
export const actorKind = (by: string) => by.split(":")[0] ?? by;

export function isVerified(row: Pick<RecordRow, "environment" | "evidenceLevel">, status: string) {
  return row.environment === "live" && status === "active" && row.evidenceLevel !== "participant_attested";
}

/**
 * The record object of the API (owner's view). Built field by field so private evidence,
 * hashes and internal actors can never leak into an answer.
 */
export function serializeRecord(row: RecordRow, history: HistoryRow[], now = Date.now()) {
  const { status, changedAt } = effectiveStatus(row, now);
  const issued = isIssued(row.status);
  const urls = issued
    ? recordUrls(row.id)
    : { certificate_url: null, qr_url: null, signature_url: null, status_url: null };
  const hist = history.map((h) => ({ status: h.status, at: h.at.toISOString(), reason: h.reason, by: actorKind(h.by) }));
  if (status === "expired" && row.status !== "expired" && row.expiresAt) {
    hist.push({ status: "expired", at: row.expiresAt.toISOString(), reason: "Validity period ended.", by: "system" });
  }
  return {
    object: "record" as const,
    verification_id: row.id,
    status,
    environment: row.environment,
    verified: isVerified(row, status),
    claim_type: row.claimType,
    subject: row.subject,
    claim: row.claim,
    evidence_level: row.evidenceLevel,
    visibility: row.visibility,
    evidence: row.evidencePublic,
    ...urls,
    review: row.status === "pending_review" || row.status === "rejected" ? { reason: row.reviewReason } : null,
    superseded_by: row.supersededBy,
    lifecycle: {
      status,
      issued_at: iso(row.issuedAt),
      valid_from: iso(row.validFrom),
      expires_at: iso(row.expiresAt),
      recheck_at: iso(row.recheckAt),
      status_changed_at: changedAt.toISOString(),
      history: hist,
    },
    integrity: issued
      ? {
          algorithm: "Ed25519" as const,
          canonicalization: "RFC8785" as const,
          signing_key_id: row.signingKeyId,
          payload_sha256: row.payloadSha256,
          signature: row.signature,
        }
      : null,
    created_at: row.createdAt.toISOString(),
  };
}
export type RecordObject = ReturnType<typeof serializeRecord>;

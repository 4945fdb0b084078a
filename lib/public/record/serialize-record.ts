import type { recordHistory, records } from "@/drizzle/schema";
import { isIssued } from "@/lib/record-model/effective-status";
import { baseFields, withTypeFields, type PublicView } from "./public-view";
import { recordUrls } from "@/lib/record-model/urls";

export type RecordRow = typeof records.$inferSelect;
export type HistoryRow = typeof recordHistory.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The record object of the API (owner's view), from the record's one public view
 * (public-view.ts). Built field by field so private evidence, hashes and internal actors
 * can never leak into an answer.
 */
export function serializeRecord(view: PublicView) {
  const { row, status, changedAt } = view;
  const issued = isIssued(row.status);
  const urls = issued
    ? recordUrls(row.id)
    : { certificate_url: null, qr_url: null, signature_url: null, status_url: null };
  // A submission carries no evidence level until issued: the level it would issue at is under `review`.
  const submission = row.status === "pending_review" || row.status === "rejected";
  const hist = view.history.map((h) => ({ status: h.status, at: h.at.toISOString(), reason: h.reason, by: h.by }));
  return withTypeFields({
    object: "record" as const,
    ...baseFields(view),
    claim: row.claim,
    evidence_level: submission ? null : row.evidenceLevel,
    visibility: row.visibility,
    evidence: row.evidencePublic,
    checks: view.checks,
    ...urls,
    review: submission ? { reason: row.reviewReason, evidence_level: row.evidenceLevel } : null,
    superseded_by: row.supersededBy,
    /** The records this one rests on (the owner's view names them even when they are private). */
    links: view.links.map((l, i) => ({ role: l.role, verification_id: view.linkedIds[i]!, status: l.status, standing: l.standing })),
    lifecycle: {
      status,
      issued_at: iso(row.issuedAt),
      valid_from: iso(row.validFrom),
      expires_at: iso(row.expiresAt),
      recheck_at: iso(row.recheckAt),
      status_changed_at: changedAt.toISOString(),
      history: hist,
      history_count: view.historyCount,
      history_before: view.historyBefore,
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
  }, view.fields);
}
export type RecordObject = ReturnType<typeof serializeRecord>;

import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { signJson } from "@/lib/signing/canonical";
import { keyring } from "@/lib/signing/keys";
import { getPublicView, withTypeFields, type PublicView } from "./public-view";
import { getCachedStatus, putCachedStatus } from "./status-cache";
import { recordUrls } from "./urls";

export type SignedStatus = { body: string; maxAgeSeconds: number };

/** What a status answer carries: the base fields, then those its claim type adds (public-view.ts). */
export function statusFields(view: PublicView) {
  const { row, status, changedAt, now } = view;
  return withTypeFields({
    verification_id: row.id,
    status,
    environment: row.environment,
    verified: view.verified,
    account: view.account,
    claim_type: row.claimType,
    subject: row.subject,
    evidence_level: row.evidenceLevel,
    issued_at: row.issuedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    status_changed_at: changedAt.toISOString(),
    as_of: new Date(now).toISOString(),
    certificate_url: recordUrls(row.id).certificate_url,
  }, view.fields);
}

/**
 * Signed status per the spec's recipe: drop `status_signature`, RFC 8785, Ed25519 with
 * the JWKS key `signing_key_id`. A signed answer is reused for at most 60 s, never past
 * the record's expiry and never after its status — or that of a record it rests on —
 * changed. Null when not issued.
 */
export async function getSignedStatus(db: Db, id: string): Promise<SignedStatus | null> {
  const now = Date.now();
  const hit = getCachedStatus(id, now);
  if (hit) return { body: hit.body, maxAgeSeconds: Math.floor((hit.untilMs - now) / 1000) };
  const view = await getPublicView(db, id, now);
  if (!view) return null;
  const { row } = view;
  const fields = statusFields(view);
  const key = keyring().active;
  const { kid, signature } = signJson({ ...fields, signing_key_id: key.kid }, key);
  const body = JSON.stringify({ ...fields, signing_key_id: kid, status_signature: signature });
  let untilMs = now + getEnv().STATUS_CACHE_SECONDS * 1000;
  if (fields.status !== "expired" && row.expiresAt) untilMs = Math.min(untilMs, row.expiresAt.getTime());
  putCachedStatus(id, { body, asOfMs: now, untilMs, dependsOn: view.dependsOn });
  return { body, maxAgeSeconds: Math.max(0, Math.floor((untilMs - now) / 1000)) };
}

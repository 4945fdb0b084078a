import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { domainDisplayText, subjectDisplayText } from "@/lib/format/domain-display";
import { signedAnswer } from "@/lib/signing/canonical";
import { latestProvenEntry } from "@/lib/tlog/store";
import { baseFields, getPublicView, withTypeFields, type PublicView } from "./public-view";
import { getPublicViewAt } from "./status-at";
import { getCachedStatus, putCachedStatus } from "@/lib/record-model/status-cache";
import { recordUrls } from "@/lib/record-model/urls";

export type SignedStatus = { body: string; maxAgeSeconds: number };

/**
 * What a status answer carries: the base fields, then those its claim type adds (public-view.ts).
 * `at`: the past instant a historical view describes (status-at.ts), signed with it.
 */
export function statusFields(view: PublicView, at?: Date) {
  const { row, changedAt, now } = view;
  return withTypeFields({
    ...baseFields(view),
    // How a page shows the subject and websites (look-alike domains with their A-label): decided here, signed, and
    // shown as is by the embed badge, which carries no confusables data of its own.
    display: { subject: subjectDisplayText(row.subject), websites: view.websites.map(domainDisplayText) },
    covers_hosts: view.coversHosts,
    evidence_level: row.evidenceLevel,
    checks: view.checks,
    issued_at: row.issuedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    status_changed_at: changedAt.toISOString(),
    as_of: new Date(now).toISOString(),
    ...(at && { at: at.toISOString() }),
    certificate_url: recordUrls(row.id).certificate_url,
  }, view.fields);
}

/**
 * Signed status per the spec's recipe: drop `status_signature`, RFC 8785, Ed25519 with
 * the JWKS key `signing_key_id`. A signed answer is reused for at most 60 s, never past
 * the record's expiry and never after its status — or that of a record it rests on —
 * changed. Null when not issued. Live records carry their latest transparency-log entry with
 * its inclusion proof against the latest checkpoint (null until a checkpoint covers it, and
 * for sandbox records, which are not logged).
 */
export async function getSignedStatus(db: Db, id: string): Promise<SignedStatus | null> {
  const now = Date.now();
  const hit = getCachedStatus(id, now);
  if (hit) return { body: hit.body, maxAgeSeconds: Math.floor((hit.untilMs - now) / 1000) };
  const view = await getPublicView(db, id, now);
  if (!view) return null;
  const { row } = view;
  // Sandbox records are never logged: no query for them on the status path.
  const logEntry = row.environment === "live" ? await latestProvenEntry(db, id) : null;
  const fields = { ...statusFields(view), transparency_log: logEntry === "pending" ? null : logEntry };
  const body = signedBody(fields);
  let untilMs = now + getEnv().STATUS_CACHE_SECONDS * 1000;
  // The latest change is not in a checkpoint yet: answer again once the next one is signed.
  if (logEntry === "pending") untilMs = Math.min(untilMs, now + getEnv().LOG_CHECKPOINT_INTERVAL_MS);
  if (fields.status !== "expired" && row.expiresAt) untilMs = Math.min(untilMs, row.expiresAt.getTime());
  putCachedStatus(id, { body, asOfMs: now, untilMs, dependsOn: view.dependsOn });
  return { body, maxAgeSeconds: Math.max(0, Math.floor((untilMs - now) / 1000)) };
}

/**
 * The signed status a record had at `at`, a past instant (status-at.ts): the same fields and
 * signature as the live answer, built from the view as of `at`, with `at` in the signed body
 * and `as_of` the moment of signing. Not kept in the status cache: the answer for a past
 * instant changes only with the account's profile, and shared caches may keep it for
 * STATUS_CACHE_SECONDS. Null when there is no issued record, or it was not issued yet at `at`.
 */
export async function getSignedStatusAt(db: Db, id: string, at: Date): Promise<SignedStatus | null> {
  const view = await getPublicViewAt(db, id, at, Date.now());
  if (!view) return null;
  return { body: signedBody(statusFields(view, at)), maxAgeSeconds: getEnv().STATUS_CACHE_SECONDS };
}

/** The spec's recipe: Ed25519 over the RFC 8785 form of the fields and signing_key_id, with the active key. */
const signedBody = (fields: Record<string, unknown>): string => signedAnswer(fields, "status_signature");

import type { AccountProfile } from "@/lib/accounts/account-profile";
import type { AuthContext } from "@/lib/accounts/types";
import { expiryFor, nextRecheckAt } from "@/lib/claims/registry";
import { stripSecrets } from "@/lib/claims/strip-secrets";
import type { CheckOutcome, ClaimModule, ClaimRequest, ViewExtras } from "@/lib/claims/types";
import { newRecordId } from "@/lib/ids";
import type { RecordCreateInput } from "@/lib/record-model/schemas";
import type { LinkedTarget } from "@/lib/record-model/link-types";
import { buildPublicView } from "@/lib/public/record/public-view";
import { entryEvent, recordEntry } from "./record-entry";
import { serializeRecord, type RecordRow } from "@/lib/public/record/serialize-record";
import { signIssue } from "./signed-payload";

/** A check outcome that lets the record be written: issued, or pending review. */
export type Passed = Exclude<CheckOutcome, { kind: "fail" }>;

/** The row, its links, its entry (record-entry.ts: history, lookup values, log leaf), the answer and the outbox event of a new record. */
export function assemble(
  auth: AuthContext, { input, module: mod }: ClaimRequest, checked: Passed, linked: readonly LinkedTarget[], account: AccountProfile, now: Date,
  extras?: ViewExtras,
) {
  // Nothing below — row, history, answer, outbox event, idempotent replay — sees a secret.
  const outcome = stripSecrets(checked, mod.request.secrets ?? [], input);
  const row = buildRow(auth, input, mod, outcome, now);
  const entry = recordEntry(row, { at: now, by: `owner:${auth.keyId}`, reason: outcome.kind === "issue" ? "Issued." : "Submitted for review." });
  const body = serializeRecord(buildPublicView(row, [entry.history], linked, account, now.getTime(), extras));
  const links = linked.map((l) => ({ recordId: row.id, role: l.role, targetId: l.target.id }));
  const bodyJson = JSON.stringify(body);
  const event = entryEvent(row, now, body, bodyJson);
  return { status: (outcome.kind === "issue" ? 201 : 202) as 201 | 202, bodyJson, row, links, ...entry, event };
}

function buildRow(auth: AuthContext, input: RecordCreateInput, mod: ClaimModule, outcome: Passed, now: Date): RecordRow {
  const id = newRecordId();
  const base = {
    id, accountId: auth.accountId, environment: auth.environment, claimType: input.claim_type,
    subject: input.subject, claim: input.claim, evidenceLevel: outcome.evidenceLevel,
    visibility: visibilityFor(auth, input), evidencePublic: outcome.publicEvidence,
    evidencePrivate: outcome.privateEvidence ?? null, statusChangedAt: now, createdAt: now,
    requestedExpiresAt: input.expires_at ? new Date(input.expires_at) : null,
  } as const;
  if (outcome.kind === "review") {
    return { ...base, status: "pending_review" as const, reviewReason: outcome.reason, issuedAt: null, validFrom: null,
      expiresAt: null, recheckAt: null, signingKeyId: null, payloadSha256: null, signature: null, signedPayload: null, supersededBy: null };
  }
  const expiresAt = outcome.expiresAt ?? (input.expires_at ? new Date(input.expires_at) : expiryFor(mod, now));
  return { ...base, status: "active" as const, reviewReason: null, recheckAt: nextRecheckAt(mod, now), supersededBy: null,
    ...signIssue({ ...base, evidence: outcome.publicEvidence, expiresAt, accountName: auth.accountName }, now) };
}

/**
 * Sandbox records are private whatever was asked (spec 1: "Sandbox records are free,
 * private…"); the answer says so by its `visibility`. Live records default to private.
 */
function visibilityFor(auth: Pick<AuthContext, "environment">, input: Pick<RecordCreateInput, "visibility">): "public" | "private" {
  return auth.environment === "sandbox" ? "private" : (input.visibility ?? "private");
}

import { getAccountProfile } from "@/lib/accounts/account-profile";
import type { AuthContext } from "@/lib/accounts/types";
import type { CheckOutcome, ClaimRequest, ViewExtras } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { filesOfAccount } from "@/lib/files/get-file";
import type { LinkedTarget } from "@/lib/record-model/link-types";
import { loadLinkTargets } from "@/lib/record-model/link-targets";

/** A check's outcome and, for one that passed, the records the new record rests on (written with it). */
export type Checked = { outcome: CheckOutcome; linked: LinkedTarget[]; extras?: ViewExtras };

/**
 * One claim check, as the create and the batch run it: the records the request names are
 * loaded (this account's only), the type's check decides, and the links it declared whose
 * targets exist go with the record.
 */
export async function checkClaim(db: Db, auth: AuthContext, { input, module: mod }: ClaimRequest, now: Date): Promise<Checked> {
  const wanted = mod.request.links?.of(input) ?? [];
  const targets = await loadLinkTargets(db, auth.accountId, wanted);
  const checked = await mod.check(input, { auth, now, db, linked: targets, account: () => getAccountProfile(db, auth.accountId) });
  const outcome = checked.kind === "fail" || !input.documents ? checked : await withDocuments(db, auth.accountId, input.documents, checked);
  const linked = outcome.kind === "fail"
    ? []
    : wanted.flatMap((w) => (targets.has(w.role) ? [{ role: w.role, target: targets.get(w.role)! }] : []));
  const extras = outcome.kind === "fail" || !mod.view?.viewExtras
    ? undefined
    : (await mod.view.viewExtras(db, [{ id: null, accountId: auth.accountId, evidence: outcome.publicEvidence }]))[0];
  return { outcome, linked, extras };
}

/**
 * The documents a submission names (`documents`), kept in its private evidence for the
 * reviewer: metadata only (id, name, type, size, SHA-256), never public or signed. A file
 * that is not this account's is refused, naming it.
 */
async function withDocuments(db: Db, accountId: string, ids: readonly string[], outcome: Exclude<CheckOutcome, { kind: "fail" }>): Promise<CheckOutcome> {
  const unique = [...new Set(ids)];
  const found = await filesOfAccount(db, accountId, unique);
  const missing = unique.find((id) => !found.some((f) => f.id === id));
  if (missing) {
    const at = ids.indexOf(missing);
    return { kind: "fail", error: { code: "invalid_document", param: `documents[${at}]`, message: `documents[${at}] is not a file of this account: upload it first with POST /api/v1/files.` } };
  }
  const documents: SubmissionDocument[] = found.map((f) => ({ id: f.id, filename: f.filename, content_type: f.contentType, size_bytes: f.sizeBytes, sha256: f.sha256 }));
  return { ...outcome, privateEvidence: { ...(outcome.privateEvidence ?? {}), documents } };
}

/** A document as a submission keeps it (private evidence `documents`). */
export type SubmissionDocument = { id: string; filename: string; content_type: string; size_bytes: number; sha256: string };

/** The documents kept with a submission, read back from its private evidence. */
export function submissionDocuments(privateEvidence: unknown): SubmissionDocument[] {
  const list = (privateEvidence as { documents?: unknown } | null)?.documents;
  return Array.isArray(list) ? (list as SubmissionDocument[]).filter((d) => typeof d?.id === "string") : [];
}

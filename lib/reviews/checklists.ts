/**
 * What a reviewer confirms before approving, per claim type. Approval needs every item
 * ticked; the ticked keys go into the audit log with the decision.
 */
import { claimModuleFor } from "@/lib/claims/registry";
import type { ChecklistItem, ClaimModule } from "@/lib/claims/types";

export type { ChecklistItem };

const GENERIC: ChecklistItem[] = [
  { key: "source_opened", label: "I opened the source URL myself and it is the source named (source_name).", fields: ["evidence.source_url", "evidence.source_name"] },
  { key: "subject_matches", label: "The source names the subject exactly as submitted.", fields: ["subject"] },
  { key: "claim_supported", label: "The source supports the claim as worded, no more.", fields: ["claim"] },
  { key: "checked_at_plausible", label: "What the source shows is consistent with checked_at.", fields: ["evidence.checked_at"] },
];

/** The claim type's review policy (its definition under lib/claims/); none for the reviewed fallback. */
export const reviewPolicyFor = (claimType: string): ClaimModule["review"] => claimModuleFor(claimType).review;

/** The claim type's own checklist (for this submission's evidence), or the generic source checklist. */
export function checklistFor(claimType: string, evidence: Record<string, unknown>): readonly ChecklistItem[] {
  const own = reviewPolicyFor(claimType)?.checklist;
  return (typeof own === "function" ? own(evidence) : own) ?? GENERIC;
}

/** Why approval is refused now (the type's `beforeApprove`), or null: the console shows it instead of the approve form. */
export function approvalRefusal(row: { claimType: string; createdAt: Date; evidencePublic: Record<string, unknown> }, now: Date): string | null {
  return reviewPolicyFor(row.claimType)?.beforeApprove?.({ createdAt: row.createdAt, evidence: row.evidencePublic }, now) ?? null;
}

/**
 * The refusal of an approval with items left unticked, naming them by the labels the
 * reviewer sees (not their keys), in checklist order.
 */
export function checklistIncompleteMessage(missing: readonly ChecklistItem[]) {
  const quoted = missing.map((i) => `“${i.label.replace(/[.\s]+$/, "")}”`);
  return `Approval needs every checklist item; not ticked: ${quoted.join("; ")}.`;
}

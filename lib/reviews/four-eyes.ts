import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { accounts, staffAudit } from "@/drizzle/schema";
import type { AuditAction, AuditSubject } from "@/lib/audit/staff-audit";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { canonicalJson } from "@/lib/signing/canonical";

/**
 * Four eyes (issue 39, item 2): a live item whose risk signals include a `high` one is approved
 * only by two different staff members. The first approval is written to the audit trail
 * (`*.approve_first`, with what it approved: `basis`, e.g. a hash of the evidence) and changes
 * nothing else; a second approval by someone else, on the same basis, decides. The same
 * person approving twice is refused (409 `second_reviewer_required`); a basis that changed
 * since (refreshed evidence) needs a new first approval.
 */
export type FirstApproval = { staffAccountId: string | null; email: string | null; at: Date; basis: string | null };

export async function firstApproval(tx: DbOrTx, subjectKind: AuditSubject, subjectId: string, action: AuditAction): Promise<FirstApproval | null> {
  const [row] = await tx.select({ staffAccountId: staffAudit.staffAccountId, email: accounts.email, at: staffAudit.at, after: staffAudit.after }).from(staffAudit)
    .leftJoin(accounts, eq(accounts.id, staffAudit.staffAccountId))
    .where(and(eq(staffAudit.subjectKind, subjectKind), eq(staffAudit.subjectId, subjectId), eq(staffAudit.action, action)))
    .orderBy(desc(staffAudit.seq)).limit(1);
  if (!row) return null;
  const basis = row.after?.basis;
  return { staffAccountId: row.staffAccountId, email: row.email, at: row.at, basis: typeof basis === "string" ? basis : null };
}

/** Whether this approval is the first of two, the second, or refused (the same person again). */
export function fourEyesStep(first: FirstApproval | null, staffAccountId: string | null, basis: string | null): "first" | "second" {
  if (!first || first.basis !== basis) return "first";
  if (first.staffAccountId === staffAccountId) {
    throw new ApiError("second_reviewer_required", "You already approved this high-risk item: a second reviewer must approve it. Nothing was changed.");
  }
  return "second";
}

/** The hash a submission's first approval is bound to: its public evidence (RFC 8785 JSON). */
export const evidenceBasis = (evidence: unknown) => createHash("sha256").update(canonicalJson(evidence ?? {})).digest("hex");

import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, organisationVerifications } from "@/drizzle/schema";
import { loadAccountProfiles } from "@/lib/accounts/account-profile";
import type { Db, Tx } from "@/lib/db/client";
import { keepFilesAfterDecision } from "@/lib/files/purge-files";
import { createHash } from "node:crypto";
import { writeAudit } from "@/lib/audit/staff-audit";
import { firstApproval, fourEyesStep } from "@/lib/reviews/four-eyes";
import { assessRisk, plainValues } from "@/lib/reviews/risk-signals";
import { canonicalJson } from "@/lib/signing/canonical";
import { notify } from "@/lib/notices/notify";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { ORGANISATION_VERIFICATION_ID_RE } from "@/lib/ids";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import { requireReviewer, type Reviewer } from "@/lib/reviews/decide-submission";
import { askRegister, notActiveReason, registerAnswerOf, standsInRegister, type RegisterAnswer } from "./register-answer";
import { afterOrganisationChange, refuseHeldLei, setVerifiedOrganisation } from "./set-organisation";
import { verificationChecklist } from "./verification-checklist";

const text = (min: number, max: number) => z.string().trim().min(min).max(max).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN);

export const verificationDecisionSchema = z.discriminatedUnion("decision", [
  z.strictObject({
    decision: z.literal("approve"),
    checklist: z.array(z.string().min(1).max(64)).max(16).default([]),
    /** Of the account's proved domains, those the reviewer confirmed are the entity's. */
    domains: z.array(z.string().min(1).max(253)).max(50).default([]),
    /** Only without an LEI: the legal or registered trading name the documents give. */
    legal_name: text(1, 200).regex(/^[^\r\n\t]*$/, "must be one line.").optional(),
    jurisdiction: text(2, 10).optional(),
    notes: z.string().trim().max(2000).optional(),
  }),
  z.strictObject({
    decision: z.literal("reject"),
    /** Shown to the applicant. */
    reason: text(3, 500),
    notes: z.string().trim().max(2000).optional(),
  }),
]);
export type VerificationDecision = z.input<typeof verificationDecisionSchema>;

const notFound = (id: string) => new ApiError("verification_not_found", `No organisation verification ${id.slice(0, 40)}.`, "id");

async function lockPending(tx: Tx, id: string) {
  if (!ORGANISATION_VERIFICATION_ID_RE.test(id)) throw notFound(id);
  const [row] = await tx.select().from(organisationVerifications).where(eq(organisationVerifications.id, id)).for("update");
  if (!row) throw notFound(id);
  if (row.status !== "pending") {
    const [by] = row.decidedBy ? await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, row.decidedBy)) : [];
    throw new ApiError("verification_decided", `This application was already decided: it is ${row.status}${by ? ` (by ${by.email}` : " ("}${row.decidedAt ? ` at ${row.decidedAt.toISOString()})` : ")"}. Nothing was changed.`);
  }
  return row;
}

/**
 * The register's answer an approval rests on: asked again now; when it cannot answer, the
 * answer kept with the application (if that was a record). The record must be ISSUED/ACTIVE.
 */
async function registerAtApproval(lei: string, kept: RegisterAnswer | null, now: Date) {
  const fresh = await askRegister(lei, now);
  const answer = fresh.result === "unreachable" && kept?.result === "found" ? kept : fresh;
  if (answer.result === "unreachable") throw new ApiError("review_precondition_failed", `${answer.reason} Approve once the register answers.`);
  if (answer.result === "not_found") throw new ApiError("lei_not_found", answer.reason, "lei");
  if (!standsInRegister(answer)) throw new ApiError("lei_not_active", notActiveReason(lei, answer), "lei");
  return answer;
}

/**
 * A reviewer's decision on an organisation verification; exactly one decision wins (the row
 * is locked and must be pending). Approve: every checklist item ticked, the legal name from
 * the register (basis lei_register) or typed from the documents without an LEI (basis
 * documents), the confirmed domains among those the account proves now; the account becomes
 * the verified organisation (409 `lei_already_verified` when another account holds the
 * LEI). Reject: a reason the applicant sees. Either way the documents are kept 90 days more.
 */
export async function decideVerification(db: Db, reviewer: Reviewer, id: string, raw: unknown, now = new Date()) {
  requireReviewer(reviewer);
  const input = parseOrThrow(verificationDecisionSchema, raw);
  const [peek] = ORGANISATION_VERIFICATION_ID_RE.test(id)
    ? await db.select().from(organisationVerifications).where(eq(organisationVerifications.id, id))
    : [];
  if (!peek) throw notFound(id);
  if (peek.accountId === reviewer.id) throw new ApiError("own_submission", "Reviewers cannot decide their own account's application; another reviewer must.");
  let register: RegisterAnswer | null = registerAnswerOf(peek.register);
  if (input.decision === "approve") {
    const missing = verificationChecklist(peek.lei !== null).filter((i) => !input.checklist.includes(i.key));
    if (missing.length > 0) {
      throw new ApiError("checklist_incomplete", `Approval needs every checklist item; not ticked: ${missing.map((i) => `“${i.label.replace(/\.$/, "")}”`).join("; ")}.`, "checklist");
    }
    if (!peek.lei && !input.legal_name) throw new ApiError("missing_field", "Without an LEI, type the legal or registered trading name the documents give.", "legal_name");
    const proved = (await loadAccountProfiles(db, [peek.accountId])).get(peek.accountId)?.verified_domains ?? [];
    const stray = input.domains.find((d) => !proved.includes(d));
    if (stray) throw new ApiError("invalid_domain", `${stray.slice(0, 253)} is not a domain this account proves now.`, "domains");
    if (peek.lei) register = await registerAtApproval(peek.lei, register, now);
  }
  const decided = await db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    if (input.decision === "approve") {
      await refuseHeldLei(tx, row.lei, row.accountId); // refused outright: no first approval of what cannot be approved
      // Four eyes: a high-risk application (lib/reviews/risk-signals.ts) is approved by two different reviewers.
      const found = register?.result === "found" ? register : null;
      const legalName = found ? found.legal_name : input.legal_name!;
      const domains = [...new Set(input.domains)].sort();
      const risk = await assessRisk(tx, {
        accountId: row.accountId, environment: "live",
        values: plainValues([
          { kind: "name", value: legalName, field: "legal_name" }, ...(row.lei ? [{ kind: "lei" as const, value: row.lei, field: "lei" }] : []),
          ...domains.map((d) => ({ kind: "domain" as const, value: d, field: "domains" })),
        ]),
      }, now);
      if (risk.level === "high") {
        const basis = createHash("sha256").update(canonicalJson({ legalName, lei: row.lei, domains })).digest("hex");
        if (fourEyesStep(await firstApproval(tx, "organisation_application", row.id, "organisation.approve_first"), reviewer.id, basis) === "first") {
          await writeAudit(tx, {
            staffAccountId: reviewer.id, action: "organisation.approve_first", subjectKind: "organisation_application", subjectId: row.id,
            accountId: row.accountId, at: now, before: { status: "pending" },
            after: { status: "pending", basis, legal_name: legalName, domains, high_risk: risk.signals.filter((r) => r.level === "high").map((r) => r.code) },
          });
          return { ...row, firstOfTwo: true };
        }
      }
    }
    if (input.decision === "reject") {
      await tx.update(organisationVerifications).set({
        status: "rejected", reason: input.reason, notes: input.notes || null, decidedBy: reviewer.id, decidedAt: now,
      }).where(eq(organisationVerifications.id, id));
    } else {
      const found = register?.result === "found" ? register : null;
      const legalName = found ? found.legal_name : input.legal_name!;
      const jurisdiction = found ? found.jurisdiction : (input.jurisdiction ?? null);
      await setVerifiedOrganisation(tx, {
        accountId: row.accountId, legalName, lei: row.lei, jurisdiction, basis: row.lei ? "lei_register" : "documents",
        domains: input.domains, verificationId: row.id, at: now,
      });
      await tx.update(organisationVerifications).set({
        status: "approved", legalName, jurisdiction, checklist: input.checklist, domains: [...new Set(input.domains)].sort(),
        register, notes: input.notes || null, decidedBy: reviewer.id, decidedAt: now,
      }).where(eq(organisationVerifications.id, id));
    }
    await keepFilesAfterDecision(tx, row.accountId, row.documents, row.id, now);
    const approved = input.decision === "approve";
    const reason = input.decision === "reject" ? input.reason : null;
    await writeAudit(tx, {
      staffAccountId: reviewer.id, action: approved ? "organisation.approve" : "organisation.reject", subjectKind: "organisation_application",
      subjectId: row.id, accountId: row.accountId, reason, at: now,
      before: { status: "pending", lei: row.lei, legal_name: row.legalName },
      after: approved ? { status: "approved", domains: [...new Set(input.domains)].sort() } : { status: "rejected" },
    });
    await notify(tx, { accountId: row.accountId, kind: approved ? "organisation.verified" : "organisation.rejected", subjectId: row.id, reason, at: now });
    return { ...row, firstOfTwo: false };
  });
  if (decided.firstOfTwo) return { id, accountId: decided.accountId, status: "awaiting_second_approval" as const };
  if (input.decision === "approve") afterOrganisationChange(decided.accountId);
  return { id, accountId: decided.accountId, status: input.decision === "approve" ? ("approved" as const) : ("rejected" as const) };
}

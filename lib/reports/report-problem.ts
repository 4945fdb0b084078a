import { createHmac } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordReports, records } from "@/drizzle/schema";
import { getAuthSecret } from "@/lib/auth/secret";
import type { Db, DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { queueMail } from "@/lib/mail/mail-outbox";
import { writeAudit } from "@/lib/audit/staff-audit";
import type { SharedRateLimiter } from "@/lib/http/rate-limit";
import { sharedRateLimiter } from "@/lib/http/shared-rate-limiter";
import { newReportId } from "@/lib/ids";
import { getPublicRecord } from "@/lib/record-model/get-record";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";

export const reportSchema = z.strictObject({
  message: z.string().trim().min(10, "Tell us in a few words what is wrong (at least 10 characters).").max(2000)
    .regex(noControl, `The message ${NO_CONTROL}`).regex(noHiddenText, `The message ${NO_HIDDEN}`),
  contact: z.union([z.literal(""), z.email("Give a valid email address, or leave it empty.").max(254)]).optional(),
});

export type ReportAnswer =
  | { ok: true; id: string }
  | { ok: false; reason: "not_found" | "rate_limited" | "invalid"; field?: "message" | "contact"; message: string };

/**
 * Per client address: a handful of reports an hour is plenty for a person, and useless for a
 * flood. Counted where every instance counts (PostgreSQL with DATABASE_URL).
 */
const g = globalThis as unknown as { __prsReportLimit?: SharedRateLimiter };
const limiter = () => (g.__prsReportLimit ??= sharedRateLimiter({ limit: 5, windowMs: 60 * 60_000 }));

/**
 * Anyone may report a problem with an issued record from its certificate. The report goes
 * to the reviewers' console; the reporter's address is kept only as a keyed hash.
 */
export async function reportProblem(db: Db, recordId: string, raw: unknown, clientAddress: string): Promise<ReportAnswer> {
  const parsed = reportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path[0] === "contact" ? "contact" : "message";
    return { ok: false, reason: "invalid", field, message: issue.message };
  }
  const record = await getPublicRecord(db, recordId);
  if (!record) return { ok: false, reason: "not_found", message: "There is no issued record with this id." };
  if (!(await limiter().hit(`report:${clientAddress}`)).ok) {
    return { ok: false, reason: "rate_limited", message: "Too many reports from your network in the last hour; try again later." };
  }
  const id = newReportId();
  await db.insert(recordReports).values({
    id, recordId: record.id, message: parsed.data.message, contact: parsed.data.contact || null,
    reporterHash: createHmac("sha256", getAuthSecret()).update(`report:${clientAddress}`).digest("hex").slice(0, 32),
  });
  return { ok: true, id };
}

/** The reviewers' list: open reports first, newest first, with the record they concern. */
export async function listReports(db: Db, status: "open" | "closed" = "open", limit = 100) {
  return db
    .select({
      id: recordReports.id, recordId: recordReports.recordId, message: recordReports.message, contact: recordReports.contact,
      createdAt: recordReports.createdAt, closedAt: recordReports.closedAt, subject: records.subject, claimType: records.claimType,
      recordStatus: records.status, reporterHash: recordReports.reporterHash,
    })
    .from(recordReports)
    .innerJoin(records, eq(records.id, recordReports.recordId))
    .where(eq(recordReports.status, status))
    .orderBy(desc(recordReports.createdAt))
    .limit(limit);
}

/**
 * A reviewer marks a report handled without acting on the record (an action on the record
 * closes its report itself: lib/staff/staff-action.ts). Audited; the reporter, when they left
 * an address, is told the outcome (reportOutcomeMail).
 */
export async function closeReport(db: Db, reviewerId: string, id: string) {
  return db.transaction(async (tx) => {
    const at = new Date();
    const [done] = await tx
      .update(recordReports)
      .set({ status: "closed", closedAt: at, closedBy: reviewerId })
      .where(and(eq(recordReports.id, id), eq(recordReports.status, "open")))
      .returning();
    if (!done) return false;
    const [rec] = await tx.select({ accountId: records.accountId }).from(records).where(eq(records.id, done.recordId));
    await writeAudit(tx, {
      staffAccountId: reviewerId, action: "report.close", subjectKind: "report", subjectId: done.id, accountId: rec?.accountId ?? null, at,
      before: { status: "open", record: done.recordId }, after: { status: "closed", outcome: "no_action" },
    });
    await mailReportOutcome(tx, done, "no_action", null);
    return true;
  });
}

export type ReportOutcome = "no_action" | "suspend" | "reinstate" | "revoke";

const OUTCOME_TEXT: Record<ReportOutcome, string> = {
  no_action: "Our reviewers looked at it and left the record as it is.",
  suspend: "Our reviewers suspended the record: its certificate and every check now say so.",
  reinstate: "Our reviewers looked at it and reinstated the record.",
  revoke: "Our reviewers revoked the record: its certificate and every check now say so.",
};

/**
 * Tell the reporter what came of their report, when they left an address: a fixed subject and
 * the outcome with the record's certificate — nothing the reporter or the record's owner wrote
 * (the mail cannot carry anyone's text to anyone). Queued in the closing transaction.
 */
export async function mailReportOutcome(tx: DbOrTx, report: { id: string; recordId: string; contact: string | null }, outcome: ReportOutcome, publicReason: string | null) {
  if (!report.contact) return;
  await queueMail(tx, {
    to: report.contact,
    subject: `Your report ${report.id} about a Proof Records certificate`,
    text: [
      `Thank you for your report ${report.id} about record ${report.recordId}.`,
      "",
      OUTCOME_TEXT[outcome],
      ...(publicReason ? [`The reason shown on the certificate: ${publicReason}`] : []),
      "",
      `The certificate: ${getEnv().publicBaseUrl}/r/${report.recordId}`,
      "",
      "— Proof Records",
    ].join("\n"),
  });
}

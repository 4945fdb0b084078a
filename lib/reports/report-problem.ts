import { createHmac } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordReports, records } from "@/drizzle/schema";
import { getAuthSecret } from "@/lib/auth/secret";
import type { Db } from "@/lib/db/client";
import type { SharedRateLimiter } from "@/lib/http/rate-limit";
import { sharedRateLimiter } from "@/lib/http/shared-rate-limiter";
import { newReportId } from "@/lib/ids";
import { getPublicRecord } from "@/lib/records/get-record";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/records/schemas";

export const reportSchema = z.strictObject({
  message: z.string().trim().min(10, "Tell us in a few words what is wrong (at least 10 characters).").max(2000)
    .regex(noControl, `The message ${NO_CONTROL}`).regex(noHiddenText, `The message ${NO_HIDDEN}`),
  contact: z.union([z.literal(""), z.email("Give a valid email address, or leave it empty.").max(254)]).optional(),
});

export type ReportAnswer =
  | { ok: true }
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
  await db.insert(recordReports).values({
    id: newReportId(), recordId: record.id, message: parsed.data.message, contact: parsed.data.contact || null,
    reporterHash: createHmac("sha256", getAuthSecret()).update(`report:${clientAddress}`).digest("hex").slice(0, 32),
  });
  return { ok: true };
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

export async function closeReport(db: Db, reviewerId: string, id: string) {
  const done = await db
    .update(recordReports)
    .set({ status: "closed", closedAt: new Date(), closedBy: reviewerId })
    .where(and(eq(recordReports.id, id), eq(recordReports.status, "open")))
    .returning({ id: recordReports.id });
  return done.length === 1;
}

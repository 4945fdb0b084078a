import { and, asc, desc, eq } from "drizzle-orm";
import { accounts, planRequests } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { newPlanRequestId } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/send-mail";
import { announceAccountChange } from "./auth-cache";
import { writePlan } from "./manage-account";

/** The plans a customer can ask for (no payment provider: an admin approves the request). */
export const REQUESTABLE_PLANS = ["starter", "growth"] as const;
export type RequestablePlan = (typeof REQUESTABLE_PLANS)[number];

export type PlanRequest = typeof planRequests.$inferSelect;

/** A request the rules refuse; its message is written for the customer or admin who asked. */
export class PlanRequestRefused extends Error {}

/**
 * A customer asks to go live on `plan`. Refused while the address is not confirmed (live
 * needs it anyway, and an admin should not approve an account whose inbox nobody proved),
 * while another request of the account waits, or for the plan the account already has.
 * The customer is mailed an acknowledgement and every admin a notice (after the commit; a
 * mail that fails is logged, the request stands).
 */
export async function requestPlan(
  db: Db,
  account: { id: string; email: string; emailConfirmedAt: Date | null; plan: string },
  input: { plan: string; note?: string },
): Promise<PlanRequest> {
  if (!account.emailConfirmedAt) throw new PlanRequestRefused("Confirm your email address first: open the link we mailed you (or send it again above).");
  if (!(REQUESTABLE_PLANS as readonly string[]).includes(input.plan)) throw new PlanRequestRefused("Choose the starter or the growth plan.");
  if (account.plan === input.plan) throw new PlanRequestRefused(`Your account already has the ${input.plan} plan.`);
  const note = input.note?.trim() || null;
  if (note && (note.length > 1000 || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(note))) {
    throw new PlanRequestRefused("The note may be at most 1,000 characters, without control characters.");
  }
  // The partial unique index (one pending request per account) decides races: a second insert does nothing.
  const [row] = await db
    .insert(planRequests)
    .values({ id: newPlanRequestId(), accountId: account.id, plan: input.plan as RequestablePlan, note })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new PlanRequestRefused("You already have a request waiting for an admin. You will hear from us by mail.");
  await mailQuietly({
    to: account.email,
    subject: `We received your request for the ${row.plan} plan`,
    text: [
      `We received your request to go live on the ${row.plan} plan (request ${row.id}).`,
      "An admin reviews it; you will get another mail when it is approved or declined.",
      "",
      `Its state is shown on ${getEnv().publicBaseUrl}/developers.`,
    ].join("\n"),
  });
  const admins = await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.role, "admin"));
  for (const a of admins) {
    await mailQuietly({
      to: a.email,
      subject: `Plan request: ${account.email} asks for ${row.plan}`,
      text: [
        `${account.email} (${account.id}) asks to go live on the ${row.plan} plan (request ${row.id}).`,
        note ? `\nTheir note: ${note}\n` : "",
        `Approve or decline it at ${getEnv().publicBaseUrl}/admin.`,
      ].join("\n"),
    });
  }
  return row;
}

/** The account's newest request (pending, approved or declined), or null. */
export async function latestPlanRequest(db: Db, accountId: string): Promise<PlanRequest | null> {
  const [row] = await db
    .select()
    .from(planRequests)
    .where(eq(planRequests.accountId, accountId))
    .orderBy(desc(planRequests.createdAt), desc(planRequests.id))
    .limit(1);
  return row ?? null;
}

/** What the admin console lists: every pending request, oldest first, with the account's email and plan. */
export async function listPendingPlanRequests(db: Db) {
  return db
    .select({
      id: planRequests.id, plan: planRequests.plan, note: planRequests.note, createdAt: planRequests.createdAt,
      accountId: accounts.id, email: accounts.email, currentPlan: accounts.plan, emailConfirmedAt: accounts.emailConfirmedAt,
    })
    .from(planRequests)
    .innerJoin(accounts, eq(accounts.id, planRequests.accountId))
    .where(eq(planRequests.status, "pending"))
    .orderBy(asc(planRequests.createdAt), asc(planRequests.id))
    .limit(500);
}

async function mailQuietly(m: { to: string; subject: string; text: string }) {
  try {
    await sendMail(m);
  } catch (e) {
    log().error({ err: e, subject: m.subject }, "plan request mail failed");
  }
}

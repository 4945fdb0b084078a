import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts, planRequests, recordHistory, records, webhooks } from "@/drizzle/schema";
import { announceAccountChange } from "@/lib/accounts/auth-cache";
import { claimModuleFor, followsParts } from "@/lib/claims/registry";
import { rowsOf, type Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { ACCOUNT_ID_RE } from "@/lib/ids";
import { notify } from "@/lib/notices/notify";
import { applyTransition } from "@/lib/records/apply-transition";
import { TRANSITIONS } from "@/lib/records/change-lifecycle";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import { recheckBeforeReinstate, refuseReinstateWhilePartsLapsed, storeRecheck } from "@/lib/records/reinstate-rules";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import type { Staff } from "./staff-action";
import { ACCOUNT_SUSPENSION_PREFIX, accountSuspensionActor } from "@/lib/record-model/standing-actor";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { writeAudit } from "@/lib/audit/staff-audit";

/** The reason is public: each suspended record's certificate says "Suspended by Proof Records: ‹reason›". */
export const accountActionSchema = z.strictObject({
  reason: z.string().trim().min(3).max(500).regex(noControl, `The reason ${NO_CONTROL}`).regex(noHiddenText, `The reason ${NO_HIDDEN}`),
});

export type AccountActionResult = {
  account_id: string; status: "suspended" | "active";
  /** Records moved by this action. */
  records: string[];
  /** Records the reinstatement left suspended, with why (a due re-check failed, a part still lapsed). */
  left_suspended: { id: string; reason: string }[];
  webhooks: number;
};

function requireStaff(staff: Staff) {
  if (staff.role !== "reviewer" && staff.role !== "admin" && staff.role !== "operator") {
    throw new ApiError("forbidden", "Only reviewers and admins can act on a customer's account.");
  }
}

const notFound = (id: string) => new ApiError("account_not_found", `No account ${id.slice(0, 40)}.`, "account");

const isFollower = (claimType: string) => Number(followsParts(claimType));
/**
 * Suspending, followers (records that stand only with their parts) go first, so each carries the
 * staff reason rather than "a part lapsed"; reinstating, they go last, once their parts stand.
 */
const followersFirst = <R extends { claimType: string }>(rows: R[], first: boolean) =>
  [...rows].sort((a, b) => (isFollower(b.claimType) - isFollower(a.claimType)) * (first ? 1 : -1));

/**
 * Staff take a whole account down at once (issue 39, item 3), in one transaction: every live
 * issued record that stands is suspended by staff with the public reason (certificates, signed
 * status, lookups, /check and badges all say so, and the records resting on them follow); its
 * API keys are refused and its sessions ended (sign-in refused with a clear message); its
 * enabled webhooks are disabled; its pending plan request is declined and no plan can be set
 * (frozen); the owner is told and the audit trail gets the action. Staff never act on their
 * own account. Lifted only by staff (reinstateAccount).
 */
export async function suspendAccount(db: Db, staff: Staff, accountId: string, raw: unknown): Promise<AccountActionResult> {
  requireStaff(staff);
  const { reason } = parseOrThrow(accountActionSchema, raw);
  if (!ACCOUNT_ID_RE.test(accountId)) throw notFound(accountId);
  const by = accountSuspensionActor(staff.accountId);
  const result = await db.transaction(async (tx) => {
    const [acct] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for("update");
    if (!acct) throw notFound(accountId);
    if (staff.accountId === acct.id) throw new ApiError("own_account", "This is your own account: another staff member must act on it. Nothing was changed.");
    if (acct.suspendedAt) throw new ApiError("invalid_transition", "This account is already suspended. Nothing was changed.", "operation");
    const at = new Date();
    await tx.update(accounts).set({ suspendedAt: at, suspendedReason: reason, sessionEpoch: sql`${accounts.sessionEpoch} + 1` }).where(eq(accounts.id, accountId));
    const live = await tx.select({ id: records.id, claimType: records.claimType }).from(records)
      .where(and(eq(records.accountId, accountId), eq(records.environment, "live"), eq(records.status, "active")));
    const moved: string[] = [];
    for (const { id } of followersFirst(live, true)) {
      const [row] = await tx.select().from(records).where(eq(records.id, id)).for("update");
      if (!row || !TRANSITIONS[effectiveStatus(row, at.getTime()).status]?.suspend) continue; // lapsed, or moved by a part meanwhile
      await applyTransition(tx, row, { next: "suspended", at, reason, by, operation: "suspend" });
      moved.push(id);
    }
    const hooks = await tx.update(webhooks).set({ status: "disabled", disabledReason: "account_suspended" })
      .where(and(eq(webhooks.accountId, accountId), eq(webhooks.status, "enabled"), isNull(webhooks.deletedAt)))
      .returning({ id: webhooks.id });
    await tx.update(planRequests).set({ status: "declined", decidedBy: staff.accountId, decidedAt: at, reason: "The account was suspended." })
      .where(and(eq(planRequests.accountId, accountId), eq(planRequests.status, "pending")));
    await writeAudit(tx, {
      staffAccountId: staff.accountId, action: "account.suspend", subjectKind: "account", subjectId: accountId, accountId, reason, at,
      before: { suspended: false, plan: acct.plan }, after: { suspended: true, records_suspended: moved, webhooks_disabled: hooks.length },
    });
    await notify(tx, { accountId, kind: "account.suspended", subjectId: accountId, reason, at });
    return { account_id: accountId, status: "suspended" as const, records: moved, left_suspended: [], webhooks: hooks.length };
  });
  invalidateStatus(result.records);
  announceAccountChange(); // cached key lookups of this account are void now
  return result;
}

/**
 * Staff lift an account's suspension: sign-in and keys work again, the webhooks the suspension
 * disabled are enabled, and exactly the records it suspended are reinstated — each under the
 * reinstatement rules (a due re-check runs first; a record resting on a lapsed part waits for
 * it): a record that cannot be reinstated stays suspended and is named in `left_suspended`.
 */
export async function reinstateAccount(db: Db, staff: Staff, accountId: string, raw: unknown): Promise<AccountActionResult> {
  requireStaff(staff);
  const { reason } = parseOrThrow(accountActionSchema, raw);
  if (!ACCOUNT_ID_RE.test(accountId)) throw notFound(accountId);
  const [pre] = await db.select({ id: accounts.id, suspendedAt: accounts.suspendedAt }).from(accounts).where(eq(accounts.id, accountId));
  if (!pre) throw notFound(accountId);
  if (staff.accountId === pre.id) throw new ApiError("own_account", "This is your own account: another staff member must act on it. Nothing was changed.");
  if (!pre.suspendedAt) throw new ApiError("invalid_transition", "This account is not suspended. Nothing was changed.", "operation");
  const candidates = await suspendedByAccountAction(db, accountId);
  // Due re-checks ask outside sources: outside the transaction, as for one record (reinstate-rules.ts).
  const left: { id: string; reason: string }[] = [];
  const nextRecheck = new Map<string, Date | null>();
  for (const row of candidates) {
    try {
      nextRecheck.set(row.id, await recheckBeforeReinstate(row));
    } catch (e) {
      left.push({ id: row.id, reason: e instanceof ApiError ? e.message : "Its due re-check could not be run." });
    }
  }
  const result = await db.transaction(async (tx) => {
    const [acct] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for("update");
    if (!acct?.suspendedAt) throw new ApiError("invalid_transition", "This account is not suspended (another staff member reinstated it). Nothing was changed.", "operation");
    const at = new Date();
    await tx.update(accounts).set({ suspendedAt: null, suspendedReason: null }).where(eq(accounts.id, accountId));
    const moved: string[] = [];
    for (const c of followersFirst(candidates.filter((c) => nextRecheck.has(c.id)), false)) {
      const [row] = await tx.select().from(records).where(eq(records.id, c.id)).for("update");
      if (!row || !TRANSITIONS[effectiveStatus(row, at.getTime()).status]?.reinstate) continue;
      try {
        await refuseReinstateWhilePartsLapsed(tx, row);
      } catch (e) {
        left.push({ id: row.id, reason: e instanceof ApiError ? e.message : "A part it rests on is not active." });
        continue;
      }
      await applyTransition(tx, await storeRecheck(tx, row, nextRecheck.get(row.id) ?? null), { next: "active", at, reason, by: accountSuspensionActor(staff.accountId), operation: "reinstate" });
      moved.push(row.id);
    }
    const hooks = await tx.update(webhooks).set({ status: "enabled", disabledReason: null, consecutiveFailures: 0 })
      .where(and(eq(webhooks.accountId, accountId), eq(webhooks.disabledReason, "account_suspended"), isNull(webhooks.deletedAt)))
      .returning({ id: webhooks.id });
    await writeAudit(tx, {
      staffAccountId: staff.accountId, action: "account.reinstate", subjectKind: "account", subjectId: accountId, accountId, reason, at,
      before: { suspended: true, suspended_reason: acct.suspendedReason }, after: { suspended: false, records_reinstated: moved, left_suspended: left.map((l) => l.id), webhooks_enabled: hooks.length },
    });
    await notify(tx, { accountId, kind: "account.reinstated", subjectId: accountId, reason, at });
    return { account_id: accountId, status: "active" as const, records: moved, left_suspended: left, webhooks: hooks.length };
  });
  invalidateStatus(result.records);
  announceAccountChange();
  return result;
}

/** The account's records whose latest move is an account suspension's (still suspended by it). */
async function suspendedByAccountAction(db: Db, accountId: string) {
  const rows = await db.select().from(records).where(and(eq(records.accountId, accountId), eq(records.status, "suspended")))
    .orderBy(asc(records.createdAt));
  if (rows.length === 0) return [];
  const last = rowsOf<{ record_id: string; by: string }>(await db.execute(sql`
    select distinct on (h.record_id) h.record_id, h.by from ${recordHistory} h
    where h.record_id in (${sql.join(rows.map((r) => sql`${r.id}`), sql`, `)})
    order by h.record_id, h.seq desc`));
  const byId = new Map(last.map((r) => [r.record_id, r.by]));
  return rows.filter((r) => byId.get(r.id)?.startsWith(ACCOUNT_SUSPENSION_PREFIX));
}

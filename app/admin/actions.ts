"use server";

import { revalidatePath } from "next/cache";
import { ApiError } from "@/lib/http/errors";
import { writeAudit } from "@/lib/audit/staff-audit";
import { grantRole, setLiveExchangeVerification, setPlan } from "@/lib/accounts/manage-account";
import { PlanRequestRefused } from "@/lib/accounts/plan-requests";
import { decidePlanRequest } from "@/lib/staff/decide-plan-request";
import { PLANS, ROLES, type Plan, type Role } from "@/lib/accounts/types";
import { PLAN_REQUEST_ID_RE } from "@/lib/ids";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { RotationUnavailable, rotateSigningKey } from "@/lib/signing/keys";
import { publishLocalKeys } from "@/lib/signing/published-keys";
import { guardedAction, errorState } from "@/lib/forms/guarded-action";

export type AdminState = { error?: string; done?: string };

/** Every admin action re-reads the session and checks the role: a customer's forged post changes nothing. */
async function requireAdmin() {
  const account = await requireAccount("/admin");
  return account.role === "admin" ? account : null;
}

export const setPlanAction = guardedAction(async (_prev: AdminState, form: FormData): Promise<AdminState> => {
  const admin = await requireAdmin();
  if (!admin) return { error: "Only admins can change plans." };
  const accountId = String(form.get("account_id") ?? "");
  const plan = String(form.get("plan") ?? "");
  if (!(PLANS as readonly string[]).includes(plan)) return { error: "Unknown plan." };
  try {
    if (!(await setPlan(await getDb(), accountId, plan as Plan, admin.id))) return { error: "No such account." };
  } catch (e) {
    if (e instanceof ApiError) return { error: e.message };
    throw e;
  }
  revalidatePath("/admin");
  return { done: `Plan set to ${plan}.` };
}, errorState);

/** Approve (sets the plan, as "Set plan" does) or decline with a reason a pending plan request. */
export const decidePlanRequestAction = guardedAction(async (_prev: AdminState, form: FormData): Promise<AdminState> => {
  const admin = await requireAdmin();
  if (!admin) return { error: "Only admins can decide plan requests." };
  const id = String(form.get("request_id") ?? "");
  const decision = form.get("decision");
  if (!PLAN_REQUEST_ID_RE.test(id)) return { error: "No such request." };
  if (decision !== "approve" && decision !== "decline") return { error: "Approve or decline." };
  try {
    const r = await decidePlanRequest(await getDb(), admin.id, id,
      decision === "approve" ? { decision } : { decision, reason: String(form.get("reason") ?? "").slice(0, 2000) });
    revalidatePath("/admin");
    return {
      done: r.awaitingSecondApproval ? "Approved by you. High risk: a second admin must approve it too."
        : r.status === "approved" ? `Approved: the account is on the ${r.plan} plan.` : "Declined; the customer was told why.",
    };
  } catch (e) {
    if (e instanceof PlanRequestRefused) return { error: e.message };
    throw e;
  }
}, errorState);

export const setRoleAction = guardedAction(async (_prev: AdminState, form: FormData): Promise<AdminState> => {
  const admin = await requireAdmin();
  if (!admin) return { error: "Only admins can change roles." };
  const accountId = String(form.get("account_id") ?? "");
  const role = String(form.get("role") ?? "");
  if (!(ROLES as readonly string[]).includes(role)) return { error: "Unknown role." };
  if (accountId === admin.id && role !== "admin") return { error: "You cannot take the admin role from your own account; ask another admin." };
  if (!(await grantRole(await getDb(), accountId, role as Role, admin.id))) return { error: "No such account." };
  revalidatePath("/admin");
  return { done: `Role set to ${role}.` };
}, errorState);

export const setLiveExchangeAction = guardedAction(async (_prev: AdminState, form: FormData): Promise<AdminState> => {
  const admin = await requireAdmin();
  if (!admin) return { error: "Only admins can enable live exchange verification." };
  const accountId = String(form.get("account_id") ?? "");
  const on = form.get("enable") === "yes";
  if (!(await setLiveExchangeVerification(await getDb(), accountId, on, admin.id))) return { error: "No such account." };
  revalidatePath("/admin");
  return { done: on ? "Live exchange verification enabled." : "Live exchange verification disabled." };
}, errorState);

export const rotateKeyAction = guardedAction(async (_prev: AdminState, form: FormData): Promise<AdminState> => {
  const admin = await requireAdmin();
  if (!admin) return { error: "Only admins can rotate signing keys." };
  if (form.get("confirm") !== "yes") return { error: "Tick the confirmation: new records will be signed with a new key." };
  try {
    const { kid } = rotateSigningKey();
    await publishLocalKeys(await getDb()); // published (on every instance) before it signs
    await writeAudit(await getDb(), { staffAccountId: admin.id, action: "signing_key.rotate", subjectKind: "signing_key", subjectId: kid, accountId: null, at: new Date() });
    revalidatePath("/admin");
    return { done: `New active signing key ${kid}. Earlier keys stay published so their signatures still verify.` };
  } catch (e) {
    if (e instanceof RotationUnavailable) return { error: e.message };
    throw e;
  }
}, errorState);

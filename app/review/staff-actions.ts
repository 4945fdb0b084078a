"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { STAFF_OPERATIONS, staffAction, type StaffOperation } from "@/lib/staff/staff-action";
import { guardedAction, formErrorState } from "@/lib/forms/guarded-action";

export type StaffActionValues = { reason: string };
/** `done` names what was done ("suspended"), shown once; the page is revalidated with the record's new status. */
export type StaffActionState = FormState<StaffActionValues, "reason" | "operation"> & { done?: string };

const PAST: Record<StaffOperation, string> = { suspend: "suspended", reinstate: "reinstated", revoke: "revoked" };

// The session is read again on every call and the role checked by staffAction (a customer
// gets "forbidden"); the server action's Origin check is the CSRF protection.
export const staffRecordAction = guardedAction(async (_prev: StaffActionState, form: FormData): Promise<StaffActionState> => {
  const id = formText(form, "id", 100);
  const account = await requireAccount(`/review/${RECORD_ID_RE.test(id) ? id : ""}`);
  const operation = formText(form, "operation", 20);
  const reason = formText(form, "reason", 1000).trim();
  const reportId = formText(form, "report_id", 64);
  const values = { reason };
  if (!(STAFF_OPERATIONS as readonly string[]).includes(operation)) return { values, errors: { operation: "Choose suspend, reinstate or revoke." } };
  if (reason.length < 3 || reason.length > 500) {
    return { values, errors: { reason: "Give a reason of 3 to 500 characters: it is shown publicly on the certificate." } };
  }
  if (operation === "revoke" && form.get("confirm_revoke") !== "on") {
    return { values, errors: { operation: "Revoking cannot be undone: tick “Revoking is final” to revoke." } };
  }
  try {
    await staffAction(await getDb(), { accountId: account.id, role: account.role }, id, {
      operation, reason, ...(reportId ? { report_id: reportId } : {}),
    });
  } catch (e) {
    if (e instanceof ApiError) return { values, errors: apiFieldErrors(e, ["reason", "operation"] as const) };
    log().error({ err: e }, "staff action failed");
    return { values, errors: { form: "The action could not be recorded. Please try again." } };
  }
  revalidatePath(`/review/${id}`);
  revalidatePath("/review/reports");
  revalidatePath(`/r/${id}`);
  return { done: PAST[operation as StaffOperation] };
}, formErrorState);

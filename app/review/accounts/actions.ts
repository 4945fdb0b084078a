"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { formErrorState, guardedAction } from "@/lib/forms/guarded-action";
import { ApiError } from "@/lib/http/errors";
import { ACCOUNT_ID_RE } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { reinstateAccount, suspendAccount, type AccountActionResult } from "@/lib/staff/suspend-account";

export type AccountActionValues = { reason: string };
export type AccountActionState = FormState<AccountActionValues, "reason" | "operation"> & { done?: AccountActionResult };

// The session is read again on every call and the role checked by suspendAccount /
// reinstateAccount (a customer gets "forbidden"); the server action's Origin check is the CSRF protection.
export const accountAction = guardedAction(async (_prev: AccountActionState, form: FormData): Promise<AccountActionState> => {
  const id = formText(form, "account_id", 100);
  const staff = await requireAccount(`/review/accounts/${ACCOUNT_ID_RE.test(id) ? id : ""}`);
  const operation = formText(form, "operation", 20);
  const reason = formText(form, "reason", 1000).trim();
  const values = { reason };
  if (operation !== "suspend" && operation !== "reinstate") return { values, errors: { operation: "Choose suspend or reinstate." } };
  if (reason.length < 3 || reason.length > 500) {
    return { values, errors: { reason: "Give a reason of 3 to 500 characters: it is shown publicly on each suspended record's certificate." } };
  }
  if (operation === "suspend" && form.get("confirm_suspend") !== "on") {
    return { values, errors: { operation: "Tick “Take the whole account down” to suspend it." } };
  }
  try {
    const act = operation === "suspend" ? suspendAccount : reinstateAccount;
    const done = await act(await getDb(), { accountId: staff.id, role: staff.role }, id, { reason });
    revalidatePath(`/review/accounts/${id}`);
    for (const r of done.records) revalidatePath(`/r/${r}`);
    return { done };
  } catch (e) {
    if (e instanceof ApiError) return { values, errors: apiFieldErrors(e, ["reason", "operation"] as const) };
    log().error({ err: e }, "account action failed");
    return { values, errors: { form: "The action could not be recorded. Please try again." } };
  }
}, formErrorState);

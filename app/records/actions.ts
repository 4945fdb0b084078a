"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { changeLifecycle } from "@/lib/records/change-lifecycle";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { lifecycleSchema } from "@/lib/record-model/schemas";
import { IRREVERSIBLE } from "./lifecycle-ops";
import { log } from "@/lib/log/logger";
import { guardedAction, formErrorState } from "@/lib/forms/guarded-action";

/**
 * One state for the page's lifecycle forms: a refusal carries the operation it answers, so
 * only that form gets back its reason, superseding id and confirmation tick, with each
 * message beside its field.
 */
export type LifecycleValues = { operation: string; reason: string; superseded_by: string; confirm: boolean };
export type LifecycleState = FormState<LifecycleValues> & { done?: string };

const OPS = ["suspend", "reinstate", "revoke", "expire", "supersede"] as const;
const FIELDS = ["reason", "superseded_by"] as const;

// The session is re-read on every call and the record is looked up under that account only
// (changeLifecycle → getRecordOrThrow): a forged id or environment reads as "not found".
export const lifecycleAction = guardedAction(async (_prev: LifecycleState, form: FormData): Promise<LifecycleState> => {
  const id = formText(form, "id", 100);
  const account = await requireAccount(`/records/${RECORD_ID_RE.test(id) ? id : ""}`);
  const operation = formText(form, "operation", 20);
  const reason = formText(form, "reason", 1000).trim();
  const supersededBy = formText(form, "superseded_by", 200).trim();
  const confirm = form.get("confirm") === "irreversible";
  const values: LifecycleValues = { operation, reason, superseded_by: supersededBy, confirm };
  const environment = form.get("environment");
  if (environment !== "sandbox" && environment !== "live") return { values, errors: { form: "Unknown environment." } };
  if (!(OPS as readonly string[]).includes(operation)) return { values, errors: { form: "Unknown operation." } };
  const errors: NonNullable<LifecycleState["errors"]> = {};
  if (reason.length < 3 || reason.length > 500) errors.reason = "Give a reason of 3 to 500 characters.";
  const parsed = lifecycleSchema.safeParse({
    operation, reason, ...(operation === "supersede" ? { superseded_by: supersededBy } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === "superseded_by") errors.superseded_by ??= "Enter the id of the superseding record (PRS-…).";
      else if (field === "reason") errors.reason ??= "The reason must be 3 to 500 characters of plain text.";
      else errors.form ??= "The request is not valid.";
    }
  }
  // Checked here, not only by the browser: a form posted without it changes nothing.
  if (IRREVERSIBLE.includes(operation) && !confirm) {
    errors.confirm = `To ${operation} this record, tick “I understand this cannot be undone”.`;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { values, errors };
  try {
    const record = await changeLifecycle(await getDb(), portalAuth(account, environment), id, parsed.data);
    revalidatePath(`/records/${id}`);
    revalidatePath("/records");
    return { done: `The record is now ${record.status}.` };
  } catch (e) {
    if (e instanceof ApiError) return { values, errors: apiFieldErrors(e, FIELDS) };
    log().error({ err: e }, "portal lifecycle change failed");
    return { values, errors: { form: "The change could not be made. Please try again." } };
  }
}, formErrorState);

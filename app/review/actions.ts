"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { decideSubmission, rerunAutomaticCheck } from "@/lib/reviews/decide-submission";
import { log } from "@/lib/log/logger";
import { guardedAction, errorState, formErrorState } from "@/lib/forms/guarded-action";

/**
 * What a form shows after its action. A success needs no message: the page is revalidated
 * and renders the decided submission (status, "Decided: …", audit log) without the forms.
 * A refusal puts back what was sent (ticked items, notes, reason) with the message beside
 * its field; `conflict` is the one answer that closes the forms.
 */
export type ReviewState = { error?: string; conflict?: string };
export type DecisionValues = { decision: "approve" | "reject"; checklist: string[]; notes: string; reason: string; withoutSnapshot?: boolean };
export type DecisionState = FormState<DecisionValues> & { conflict?: string };

const DECISION_FIELDS = ["checklist", "notes", "reason"] as const;

function unexpected(e: unknown, what: string): string {
  log().error({ err: e }, `review ${what} failed`);
  return `The ${what} could not be recorded. Please try again.`;
}

// The session is read again on every call and the role checked by decideSubmission
// (a customer gets "forbidden"); the server action's Origin check is the CSRF protection.
export const decideAction = guardedAction(async (_prev: DecisionState, form: FormData): Promise<DecisionState> => {
  const id = formText(form, "id", 100);
  const account = await requireAccount(`/review/${RECORD_ID_RE.test(id) ? id : ""}`);
  const decision = form.get("decision");
  if (decision !== "approve" && decision !== "reject") return { errors: { form: "Choose approve or reject." } };
  const notes = formText(form, "notes", 4000).trim();
  const reason = formText(form, "reason", 1000).trim();
  const checklist = form.getAll("checklist").filter((v): v is string => typeof v === "string").slice(0, 64).map((v) => v.slice(0, 64));
  const withoutSnapshot = form.get("without_snapshot") === "on";
  const values: DecisionValues = { decision, checklist, notes, reason, withoutSnapshot };
  if (decision === "reject" && (reason.length < 3 || reason.length > 500)) {
    return { values, errors: { reason: "A rejection needs a reason of 3 to 500 characters; the customer sees it." } };
  }
  try {
    await decideSubmission(await getDb(), { id: account.id, role: account.role }, id, {
      decision,
      checklist,
      ...(notes ? { notes } : {}),
      ...(decision === "reject" ? { reason } : {}),
      ...(decision === "approve" && withoutSnapshot ? { without_snapshot: true } : {}),
    });
    revalidatePath("/review");
    revalidatePath(`/review/${id}`);
    return {};
  } catch (e) {
    if (!(e instanceof ApiError)) return { values, errors: { form: unexpected(e, "decision") } };
    if (e.code === "review_conflict") return { conflict: e.message };
    return { values, errors: apiFieldErrors(e, DECISION_FIELDS) };
  }
}, formErrorState);

export const rerunAction = guardedAction(async (_prev: ReviewState, form: FormData): Promise<ReviewState> => {
  const id = String(form.get("id") ?? "");
  const account = await requireAccount(`/review/${RECORD_ID_RE.test(id) ? id : ""}`);
  try {
    const r = await rerunAutomaticCheck(await getDb(), { id: account.id, role: account.role }, id);
    revalidatePath("/review");
    revalidatePath(`/review/${id}`);
    return r.outcome === "issued" || r.outcome === "checked" ? {} : { error: r.reason };
  } catch (e) {
    if (e instanceof ApiError) return e.code === "review_conflict" ? { conflict: e.message } : { error: e.message };
    return { error: unexpected(e, "re-run") };
  }
}, errorState);

"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { decideSubmission, rerunAutomaticCheck } from "@/lib/reviews/decide-submission";
import { describeError } from "@/lib/log/describe-error";

/**
 * What a form shows after its action. A success needs no message: the page is revalidated
 * and renders the decided submission (status, "Decided: …", audit log) without the forms.
 */
export type ReviewState = { error?: string; conflict?: string };

function fail(e: unknown, what: string): ReviewState {
  if (e instanceof ApiError) return e.code === "review_conflict" ? { conflict: e.message } : { error: e.message };
  console.error(`[prs] review ${what} failed: ${describeError(e)}`);
  return { error: `The ${what} could not be recorded. Please try again.` };
}

// The session is read again on every call and the role checked by decideSubmission
// (a customer gets "forbidden"); the server action's Origin check is the CSRF protection.
export async function decideAction(_prev: ReviewState, form: FormData): Promise<ReviewState> {
  const id = String(form.get("id") ?? "");
  const account = await requireAccount(`/review/${RECORD_ID_RE.test(id) ? id : ""}`);
  const decision = String(form.get("decision") ?? "");
  const notes = String(form.get("notes") ?? "").trim();
  const reason = String(form.get("reason") ?? "").trim();
  if (decision === "reject" && (reason.length < 3 || reason.length > 500)) {
    return { error: "A rejection needs a reason of 3 to 500 characters; the customer sees it." };
  }
  try {
    await decideSubmission(await getDb(), { id: account.id, role: account.role }, id, {
      decision,
      checklist: form.getAll("checklist").map(String),
      ...(notes ? { notes } : {}),
      ...(decision === "reject" ? { reason } : {}),
    });
    revalidatePath("/review");
    revalidatePath(`/review/${id}`);
    return {};
  } catch (e) {
    return fail(e, "decision");
  }
}

export async function rerunAction(_prev: ReviewState, form: FormData): Promise<ReviewState> {
  const id = String(form.get("id") ?? "");
  const account = await requireAccount(`/review/${RECORD_ID_RE.test(id) ? id : ""}`);
  try {
    const r = await rerunAutomaticCheck(await getDb(), { id: account.id, role: account.role }, id);
    revalidatePath("/review");
    revalidatePath(`/review/${id}`);
    return r.outcome === "issued" ? {} : { error: r.reason };
  } catch (e) {
    return fail(e, "re-run");
  }
}

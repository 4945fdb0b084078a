"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { changeLifecycle } from "@/lib/records/change-lifecycle";
import { portalAuth } from "@/lib/records/portal-auth";
import { lifecycleSchema } from "@/lib/records/schemas";
import { IRREVERSIBLE } from "./lifecycle-ops";
import { describeError } from "@/lib/log/describe-error";

export type LifecycleState = { error?: string; done?: string };

const OPS = ["suspend", "reinstate", "revoke", "expire", "supersede"] as const;

// The session is re-read on every call and the record is looked up under that account only
// (changeLifecycle → getRecordOrThrow): a forged id or environment reads as "not found".
export async function lifecycleAction(_prev: LifecycleState, form: FormData): Promise<LifecycleState> {
  const id = String(form.get("id") ?? "");
  const account = await requireAccount(`/records/${RECORD_ID_RE.test(id) ? id : ""}`);
  const environment = form.get("environment");
  if (environment !== "sandbox" && environment !== "live") return { error: "Unknown environment." };
  const operation = String(form.get("operation") ?? "");
  if (!(OPS as readonly string[]).includes(operation)) return { error: "Unknown operation." };
  // Checked here, not only by the browser: a form posted without it changes nothing.
  if (IRREVERSIBLE.includes(operation) && form.get("confirm") !== "irreversible") {
    return { error: `To ${operation} this record, tick “I understand this cannot be undone”.` };
  }
  const reason = String(form.get("reason") ?? "").trim();
  if (reason.length < 3 || reason.length > 500) return { error: "Give a reason of 3 to 500 characters." };
  const supersededBy = String(form.get("superseded_by") ?? "").trim();
  const parsed = lifecycleSchema.safeParse({
    operation, reason, ...(operation === "supersede" ? { superseded_by: supersededBy } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    if (field === "superseded_by") return { error: "Enter the id of the superseding record (PRS-…)." };
    if (field === "reason") return { error: "The reason must be 3 to 500 characters of plain text." };
    return { error: "The request is not valid." };
  }
  try {
    const record = await changeLifecycle(await getDb(), portalAuth(account, environment), id, parsed.data);
    revalidatePath(`/records/${id}`);
    revalidatePath("/records");
    return { done: `The record is now ${record.status}.` };
  } catch (e) {
    if (e instanceof ApiError) return { error: e.message };
    console.error(`[prs] portal lifecycle change failed: ${describeError(e)}`);
    return { error: "The change could not be made. Please try again." };
  }
}

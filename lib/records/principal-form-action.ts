"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formText, type FormState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { changePrincipal } from "./change-principal";
import { guardedAction } from "@/lib/forms/guarded-action";

/**
 * The owner's record page links an agent record to its principal's company record, or
 * unlinks it, through the same changePrincipal as `PATCH /api/v1/records/{id}/principal`,
 * acting as the signed-in account. The record is chosen from a list (`principal_record_id`)
 * or typed (`typed_record_id`, which wins when both are given); a refusal comes back beside
 * the field that was used, with both values kept.
 */
export type PrincipalValues = { principal_record_id: string; typed_record_id: string };
export type PrincipalState = FormState<PrincipalValues> & { done?: string; attempt: number };

/** A refused input (lib/forms/guarded-action.ts): the form's own message, as a new attempt. */
const refusedPrincipalState = (message: string, [prev]: [PrincipalState, FormData]): PrincipalState => ({
  attempt: (Number.isSafeInteger(prev?.attempt) ? prev.attempt : 0) + 1,
  errors: { form: `${message} Nothing was changed.` },
});

const ONLY_ID = "'principal_record_id'";

export const principalAction = guardedAction(async (prev: PrincipalState, form: FormData): Promise<PrincipalState> => {
  const id = formText(form, "id", 100);
  const account = await requireAccount(`/records/${RECORD_ID_RE.test(id) ? id : ""}`);
  const attempt = prev.attempt + 1;
  const operation = formText(form, "operation", 10);
  const values: PrincipalValues = {
    principal_record_id: formText(form, "principal_record_id", 100).trim(),
    typed_record_id: formText(form, "typed_record_id", 200).trim(),
  };
  const refuse = (errors: PrincipalState["errors"]): PrincipalState => ({ attempt, values, errors });
  const environment = form.get("environment");
  if (environment !== "sandbox" && environment !== "live") return refuse({ form: "Unknown environment." });
  if (operation !== "link" && operation !== "unlink") return refuse({ form: "Unknown operation." });
  const field = values.typed_record_id ? "typed_record_id" : "principal_record_id";
  const target = operation === "unlink" ? null : values.typed_record_id || values.principal_record_id;
  if (target === "") return refuse({ principal_record_id: "Choose a company record, or type the id of one below." });
  try {
    await changePrincipal(await getDb(), portalAuth(account, environment), id, { principal_record_id: target });
  } catch (e) {
    if (!(e instanceof ApiError)) {
      log().error({ err: e }, "portal principal change failed");
      return refuse({ form: "The change could not be made. Please try again." });
    }
    // Said beside the field the id came from ("This record must be public.").
    if (e.param === "principal_record_id" && operation === "link") {
      return refuse({ [field]: e.message.startsWith(ONLY_ID) ? `This id${e.message.slice(ONLY_ID.length)}` : e.message });
    }
    return refuse({ form: e.message });
  }
  revalidatePath(`/records/${id}`);
  return { attempt, done: target ? `Linked to ${target}.` : "Unlinked: the agent no longer rests on a company record." };
}, refusedPrincipalState);

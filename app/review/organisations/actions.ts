"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { ORGANISATION_VERIFICATION_ID_RE } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { decideVerification } from "@/lib/organisations/decide-verification";
import { guardedAction, formErrorState } from "@/lib/forms/guarded-action";

export type OrganisationDecisionValues = {
  decision: "approve" | "reject"; checklist: string[]; domains: string[]; legalName: string; jurisdiction: string; notes: string; reason: string;
};
export type OrganisationDecisionState = FormState<OrganisationDecisionValues, "checklist" | "domains" | "legal_name" | "reason" | "notes"> & { conflict?: string; done?: string };

const FIELDS = ["checklist", "domains", "legal_name", "reason", "notes"] as const;
const many = (form: FormData, name: string) => form.getAll(name).filter((v): v is string => typeof v === "string").slice(0, 64).map((v) => v.slice(0, 253));

// The session is read again on every call and the role checked by decideVerification (a
// customer gets "forbidden"); the server action's Origin check is the CSRF protection.
export const decideOrganisationAction = guardedAction(async (_prev: OrganisationDecisionState, form: FormData): Promise<OrganisationDecisionState> => {
  const id = formText(form, "id", 100);
  const account = await requireAccount(`/review/organisations/${ORGANISATION_VERIFICATION_ID_RE.test(id) ? id : ""}`);
  const decision = form.get("decision");
  if (decision !== "approve" && decision !== "reject") return { errors: { form: "Choose approve or reject." } };
  const values: OrganisationDecisionValues = {
    decision, checklist: many(form, "checklist"), domains: many(form, "domains"), legalName: formText(form, "legal_name", 400).trim(),
    jurisdiction: formText(form, "jurisdiction", 20).trim(), notes: formText(form, "notes", 4000).trim(), reason: formText(form, "reason", 1000).trim(),
  };
  const notes = values.notes ? { notes: values.notes } : {};
  const input = decision === "approve"
    ? { decision, checklist: values.checklist, domains: values.domains, ...(values.legalName ? { legal_name: values.legalName } : {}), ...(values.jurisdiction ? { jurisdiction: values.jurisdiction } : {}), ...notes }
    : { decision, reason: values.reason, ...notes };
  try {
    const r = await decideVerification(await getDb(), { id: account.id, role: account.role }, id, input);
    revalidatePath("/review/organisations");
    revalidatePath(`/review/organisations/${id}`);
    return { done: r.status };
  } catch (e) {
    if (!(e instanceof ApiError)) {
      log().error({ err: e }, "organisation decision failed");
      return { values, errors: { form: "The decision could not be recorded. Please try again." } };
    }
    if (e.code === "verification_decided") return { conflict: e.message };
    return { values, errors: apiFieldErrors(e, FIELDS) };
  }
}, formErrorState);

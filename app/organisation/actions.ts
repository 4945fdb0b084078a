"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { discardUnusedFiles, MAX_FILE_BYTES, storeFile } from "@/lib/files/store-file";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/log/logger";
import { applyForVerification, MAX_DOCUMENTS } from "@/lib/organisations/apply-for-verification";
import { guardedAction, formErrorState } from "@/lib/forms/guarded-action";

export type ApplyValues = { lei: string; name: string; role: string; email: string };
type ApplyField = "lei" | "name" | "role" | "email" | "documents";
export type ApplyState = FormState<ApplyValues, ApplyField> & { applied?: string };

/** API params → the form's fields. */
const FIELD_OF: Record<string, ApplyField> = { lei: "lei", "applicant.name": "name", "applicant.role": "role", "applicant.email": "email", file: "documents", documents: "documents" };

// The session is read again here and everything is stored under that account only; Next's
// Origin check on server actions is the CSRF protection.
export const applyOrganisationAction = guardedAction(async (_prev: ApplyState, form: FormData): Promise<ApplyState> => {
  const account = await requireAccount("/organisation");
  const values: ApplyValues = {
    lei: formText(form, "lei", 60).trim(), name: formText(form, "name", 400), role: formText(form, "role", 400), email: formText(form, "email", 400).trim(),
  };
  const uploads = form.getAll("documents").filter((f): f is File => typeof f !== "string" && f.size > 0);
  if (uploads.length === 0) return { values, errors: { documents: "Attach at least one document (PDF, PNG or JPEG)." } };
  if (uploads.length > MAX_DOCUMENTS) return { values, errors: { documents: `Attach at most ${MAX_DOCUMENTS} documents.` } };
  const db = await getDb();
  const stored: string[] = [];
  try {
    for (const f of uploads) {
      if (f.size > MAX_FILE_BYTES) throw new ApiError("file_too_large", `${f.name.slice(0, 100)} exceeds 10 MiB; send a smaller scan or photo.`, "file");
      stored.push((await storeFile(db, account.id, { filename: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })).id);
    }
    const app = await applyForVerification(db, account.id, {
      ...(values.lei ? { lei: values.lei } : {}), applicant: { name: values.name, role: values.role, email: values.email }, documents: stored,
    });
    revalidatePath("/organisation");
    return { applied: app.id };
  } catch (e) {
    await discardUnusedFiles(db, account.id, stored).catch(() => {});
    if (!(e instanceof ApiError)) {
      log().error({ err: e }, "organisation application failed");
      return { values, errors: { form: "The application could not be sent. Please try again." } };
    }
    const field = e.param ? (FIELD_OF[e.param] ?? (e.param.startsWith("documents") ? "documents" : undefined)) : undefined;
    return { values, errors: field ? { [field]: e.message } : apiFieldErrors(e, [] as ApplyField[]) };
  }
}, formErrorState);

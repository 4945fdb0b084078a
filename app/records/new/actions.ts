"use server";

import { redirect } from "next/navigation";
import { portalEnvironment } from "@/lib/accounts/live-access";
import { requireAccount } from "@/lib/auth/session";
import { besideField, fieldFor, formValues, inPlainWords, requestFromForm, type FormValues } from "@/lib/claims/form-request";
import { claimFormSpecs, type ClaimFormSpec } from "@/lib/claims/form-spec";
import { hasOwnModule } from "@/lib/claims/registry";
import { getDb, type Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { discardUnusedFiles, MAX_FILE_BYTES, storeFile } from "@/lib/files/store-file";
import { MAX_SUBMISSION_DOCUMENTS } from "@/lib/record-model/schemas";
import type { AuthContext } from "@/lib/accounts/types";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/log/logger";
import { createRecord, type CreateResult } from "@/lib/records/create-record";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { FORM_KEY_RE, newFormKey } from "./form-key";
import { guardedAction } from "@/lib/forms/guarded-action";

// The portal's "New record" form posts here. It builds exactly the request the API takes and
// runs it through the same pipeline (createRecord) as the signed-in account (history actor
// `owner:portal`), under the idempotency key the page rendered into the form: a double
// submit or a retry replays the record the first one made. Next refuses server-action POSTs
// from another Origin (the CSRF check); the session is re-read on every call.

export type NewRecordState = {
  /** Counts the answers: the form remounts with the values handed back. */
  attempt: number;
  /** The idempotency key the next submission uses: the same one until a record is made. */
  idempotencyKey: string;
  choice?: string;
  environment?: string;
  values?: FormValues;
  /** Errors beside their field, by field name. */
  errors?: Record<string, string>;
  /** An error that concerns no one field. */
  error?: string;
};


/** A refused input (lib/forms/guarded-action.ts): the form's own error, a new attempt, the same idempotency key. */
const refusedRecordState = (message: string, [prev]: [NewRecordState, FormData]): NewRecordState => ({
  attempt: (Number.isSafeInteger(prev?.attempt) ? prev.attempt : 0) + 1,
  idempotencyKey: FORM_KEY_RE.test(prev?.idempotencyKey ?? "") ? prev.idempotencyKey : newFormKey(),
  choice: prev?.choice, environment: prev?.environment,
  error: `${message} Nothing was saved: remove it and press “Create record” again.`,
});

const specs = () => claimFormSpecs(getEnv().DEFAULT_RECORD_VALIDITY_DAYS);

export const newRecordAction = guardedAction(async (prev: NewRecordState, form: FormData): Promise<NewRecordState> => {
  const account = await requireAccount("/records/new");
  const choice = String(form.get("choice") ?? "");
  const environment = String(form.get("environment") ?? "");
  const posted = String(form.get("idempotency_key") ?? "");
  const state = { attempt: prev.attempt + 1, idempotencyKey: FORM_KEY_RE.test(posted) ? posted : newFormKey(), choice, environment };
  const all = specs();
  const spec = all.find((s) => s.key === choice && !s.href);
  if (!spec) return { ...state, error: "Choose what kind of record to create." };
  const values = formValues(spec, form);
  // What was typed comes back on a refusal — except secrets (an exchange API secret), which are typed again.
  const kept = Object.fromEntries(Object.entries(values).filter(([k]) => spec.fields.find((f) => f.name === k)?.kind !== "secret"));
  const refuse = (r: Pick<NewRecordState, "error" | "errors">): NewRecordState => ({ ...state, values: kept, ...r });
  if (!FORM_KEY_RE.test(posted)) return refuse({ error: "This form is out of date. Press “Create record” again." });

  const env = portalEnvironment(account, environment, "Live records");
  if ("error" in env) return refuse({ errors: { environment: env.error } });
  const raw = requestFromForm(spec, values);
  const own = spec.namesItsType && typeof raw.claim_type === "string" && hasOwnModule(raw.claim_type)
    ? all.find((s) => s.key === raw.claim_type) : undefined;
  if (own) return refuse({ errors: { claim_type: `${own.key} is a kind of record of its own: choose “${own.label}” above.` } });

  const uploads = spec.fields.some((f) => f.kind === "files")
    ? form.getAll("documents").filter((f): f is File => typeof f !== "string" && f.size > 0) : [];
  if (uploads.length > MAX_SUBMISSION_DOCUMENTS) return refuse({ errors: { documents: `Attach at most ${MAX_SUBMISSION_DOCUMENTS} documents.` } });

  const db = await getDb();
  let result: CreateResult;
  const stored: string[] = [];
  try {
    for (const f of uploads) {
      if (f.size > MAX_FILE_BYTES) throw new ApiError("file_too_large", `${f.name.slice(0, 100)} is larger than 10 MiB: attach a smaller scan or photo.`, "documents");
      stored.push((await storeFile(db, account.id, { filename: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })).id);
    }
    result = await createOnce(db, portalAuth(account, env.environment), stored.length > 0 ? { ...raw, documents: stored } : raw, posted);
  } catch (e) {
    await discardUnusedFiles(db, account.id, stored).catch(() => {});
    if (!(e instanceof ApiError)) {
      log().error({ err: e }, "portal new record failed");
      return refuse({ error: "The record could not be created because of a problem on our side. Please try again." });
    }
    if (e.code === "idempotency_key_reused") {
      // This form already made a record (e.g. the browser's back button, then an edit): a new key makes another.
      return { ...refuse({ error: "This form has already created a record. Check what is shown and press “Create record” again to create another." }), idempotencyKey: newFormKey() };
    }
    return refuse(errorFor(spec, all, e));
  }
  const id = (JSON.parse(result.bodyJson) as { verification_id: string }).verification_id;
  redirect(`/records/${id}`);
}, refusedRecordState);

/** The pipeline's refusal beside the field it names (`param`), or above the form when it names none shown. */
function errorFor(spec: ClaimFormSpec, all: ClaimFormSpec[], e: ApiError): Pick<NewRecordState, "error" | "errors"> {
  const kinds = new Map(all.map((s) => [s.key, s.label]));
  // An uploaded file the service refuses (its type, its size) concerns the upload field.
  const param = e.param === "file" || e.param?.startsWith("documents") ? "documents" : e.param;
  const field = fieldFor(spec, param);
  return field && param ? { errors: { [field.name]: besideField(field, param, e.message, spec, kinds) } } : { error: inPlainWords(spec, e.message, kinds) };
}

/**
 * createRecord under the form's key. A duplicate that arrives while the first is still being
 * checked (409 idempotency_key_in_use: a slow source, a second tab) waits for it and then
 * replays its answer, instead of failing.
 */
async function createOnce(db: Db, auth: AuthContext, raw: Record<string, unknown>, key: string): Promise<CreateResult> {
  for (let tries = 0; ; tries++) {
    try {
      return await createRecord(db, auth, raw, key);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "idempotency_key_in_use" || tries >= 40) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, buttonClass, inputClass } from "@/components/portal";
import { applyOrganisationAction, type ApplyState } from "./actions";

/** The application: LEI (optional), the applicant, and documents uploaded with it. */
export function ApplyForm() {
  const [state, action, pending] = useActionState<ApplyState, FormData>(applyOrganisationAction, {});
  const uid = useId();
  const v = state.values;
  const e = state.errors ?? {};
  const field = (name: "lei" | "name" | "role" | "email" | "documents") => ({
    id: `${uid}-${name}`, "aria-invalid": Boolean(e[name]) || undefined, "aria-describedby": e[name] ? `${uid}-${name}-error` : undefined,
  });
  if (state.applied) {
    return <Alert kind="success" id="applied"><span data-testid="applied">Application {state.applied} sent: a reviewer will check it.</span></Alert>;
  }
  return (
    <form action={action} className="mt-4 max-w-xl space-y-4" data-testid="org-form">
      <div>
        <label htmlFor={`${uid}-lei`} className="block text-sm">LEI (optional)</label>
        <input name="lei" maxLength={40} defaultValue={v?.lei ?? ""} className={`${inputClass} font-mono`} placeholder="20 letters and digits" {...field("lei")} />
        <p className="mt-1 text-xs text-slate-500">Without an LEI (or as a sole trader), a reviewer confirms your legal or registered trading name from the documents.</p>
        <FieldError id={`${uid}-lei-error`} message={e.lei} />
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Who is applying for the entity</legend>
        <div>
          <label htmlFor={`${uid}-name`} className="block text-sm">Your name</label>
          <input name="name" required maxLength={200} defaultValue={v?.name ?? ""} className={inputClass} autoComplete="name" {...field("name")} />
          <FieldError id={`${uid}-name-error`} message={e.name} />
        </div>
        <div>
          <label htmlFor={`${uid}-role`} className="block text-sm">Your role</label>
          <input name="role" required maxLength={200} defaultValue={v?.role ?? ""} className={inputClass} placeholder="e.g. Director" autoComplete="organization-title" {...field("role")} />
          <FieldError id={`${uid}-role-error`} message={e.role} />
        </div>
        <div>
          <label htmlFor={`${uid}-email`} className="block text-sm">Your email</label>
          <input name="email" type="email" required maxLength={254} defaultValue={v?.email ?? ""} className={inputClass} autoComplete="email" {...field("email")} />
          <FieldError id={`${uid}-email-error`} message={e.email} />
        </div>
      </fieldset>
      <div>
        <label htmlFor={`${uid}-documents`} className="block text-sm">Documents (PDF, PNG or JPEG, up to 10 MiB each)</label>
        <input name="documents" type="file" multiple required accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg" className="mt-1 block w-full text-sm" {...field("documents")} />
        <p className="mt-1 text-xs text-slate-500">A registry extract or letter of authority naming you as able to act for the entity. Only you and Proof Records reviewers can open them; they are never published and are deleted 90 days after the decision.</p>
        <FieldError id={`${uid}-documents-error`} message={e.documents} />
      </div>
      {e.form && <Alert kind="error">{e.form}</Alert>}
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Sending…" : "Apply for verification"}</button>
    </form>
  );
}

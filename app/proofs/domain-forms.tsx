"use client";

import { useActionState } from "react";
import { Alert, FieldError, buttonClass, inputClass } from "@/components/portal";
import { checkDomainAction, requestDomainChallengeAction, type DomainRequestState, type ProofState } from "./actions";
import { ProofResult } from "./proof-result";

export function DomainRequestForm({ environment }: { environment: string }) {
  const [state, action, pending] = useActionState<DomainRequestState, FormData>(requestDomainChallengeAction, {});
  const e = state.errors ?? {};
  return (
    <form action={action} className="mt-4" data-testid="domain-request">
      <input type="hidden" name="environment" value={environment} />
      <label className="block text-sm" htmlFor="domain-input">Domain</label>
      <div className="flex flex-wrap items-start gap-x-3">
        <input id="domain-input" name="domain" className={`${inputClass} max-w-sm`} placeholder="example.com" required maxLength={2000} autoComplete="off"
          defaultValue={state.values?.domain ?? ""} aria-invalid={Boolean(e.domain)} aria-describedby={e.domain ? "domain-error" : undefined} />
        <button className={`${buttonClass} mt-1`} type="submit" disabled={pending}>Request challenge</button>
      </div>
      <FieldError id="domain-error" message={e.domain} />
      {e.form && <Alert kind="error">{e.form}</Alert>}
    </form>
  );
}

/** "Check now": submits the domain_ownership record for the challenge; repeatable until it issues. */
export function DomainCheckForm({ challengeId, environment }: { challengeId: string; environment: string }) {
  const [state, action, pending] = useActionState<ProofState, FormData>(checkDomainAction, {});
  const done = Boolean(state.issued || state.pending);
  return (
    <div data-testid="domain-check">
      {!done && (
        <form action={action} className="mt-4 flex flex-wrap items-center gap-4">
          <input type="hidden" name="challenge_id" value={challengeId} />
          <input type="hidden" name="environment" value={environment} />
          <label className="flex w-full items-start gap-2 text-sm">
            <input type="checkbox" name="visibility" value="public" defaultChecked className="mt-1 shrink-0" />
            <span>Public record (live only: its certificate may be indexed by search engines; a private one — and every sandbox record — is reachable by its id only)</span>
          </label>
          <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Checking…" : "Check now"}</button>
        </form>
      )}
      <ProofResult state={state} what="the TXT record was found." />
    </div>
  );
}

"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { ConfirmActionState } from "@/lib/forms/form-state";
import { dangerButtonClass, secondaryButtonClass } from "./classes";

/**
 * A destructive action (revoke a key, delete a webhook) in two steps: the first button only
 * asks, the second sends the form with `confirm=yes`, and the server action refuses a post
 * without it. No window.confirm (which a page or an extension can suppress), and the same
 * rule as the records page's irreversible changes: confirmed in the page, checked again by
 * the server. Escape or Cancel goes back to the first step.
 */
export function ConfirmActionForm({
  action, fields, trigger, triggerLabel, question, confirm, testId,
}: {
  action: (prev: ConfirmActionState, form: FormData) => Promise<ConfirmActionState>;
  /** Hidden fields naming what the action is about (the server checks them against the session). */
  fields: Record<string, string>;
  /** The first button's text ("Revoke") and accessible name ("Revoke key prs_…"). */
  trigger: string;
  triggerLabel: string;
  question: React.ReactNode;
  /** The second button's text ("Yes, revoke"). */
  confirm: string;
  testId?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [asking, setAsking] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  // Focus follows the step: to Cancel (the harmless choice) when asked, back to the trigger after.
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
    else if (wasAsking.current) triggerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  return (
    <form action={formAction} className="inline-block text-left" data-testid={testId}>
      {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      {!asking ? (
        <button ref={triggerRef} type="button" className={secondaryButtonClass} aria-label={triggerLabel} onClick={() => setAsking(true)}>
          {trigger}
        </button>
      ) : (
        <div role="group" aria-label={`Confirm: ${triggerLabel}`} data-testid="confirm-step"
          className="max-w-xs rounded border border-red-300 bg-red-50 p-3 text-sm text-red-950"
          onKeyDown={(e) => { if (e.key === "Escape") setAsking(false); }}>
          <p>{question}</p>
          <input type="hidden" name="confirm" value="yes" />
          <div className="mt-2 flex flex-wrap gap-2">
            <button type="submit" className={dangerButtonClass} disabled={pending}>{pending ? "Working…" : confirm}</button>
            <button ref={cancelRef} type="button" className={secondaryButtonClass} disabled={pending} onClick={() => setAsking(false)}>Cancel</button>
          </div>
        </div>
      )}
      {state.error && <p role="alert" className="mt-1 max-w-xs text-sm text-red-700">{state.error}</p>}
    </form>
  );
}

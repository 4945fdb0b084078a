"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Alert, buttonClass } from "@/components/portal";
import { confirmEmailAction, type ConfirmState } from "./actions";

export function ConfirmForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<ConfirmState, FormData>(confirmEmailAction, {});
  if (state.confirmed) {
    return (
      <>
        <Alert kind="success" id="confirm-result">{state.confirmed}</Alert>
        <p className="mt-6"><Link className={buttonClass} href="/developers">Go to the developer portal</Link></p>
      </>
    );
  }
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error && <Alert kind="error" id="confirm-result">{state.error}</Alert>}
      <input type="hidden" name="token" value={token} />
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Confirming…" : "I created this account: confirm it"}</button>
    </form>
  );
}

import Link from "next/link";
import { Alert } from "@/components/portal";
import type { ProofState } from "./actions";

/** What a proof attempt came to: issued (with links), pending review, not found yet, or refused. */
export function ProofResult({ state, what }: { state: ProofState; what: string }) {
  if (state.issued) {
    const r = state.issued;
    return (
      <Alert kind="success">
        <p data-testid="proof-issued" data-id={r.id}>
          Issued <code>{r.id}</code> ({r.environment}) for <strong className="break-all">{r.subject}</strong>: {what}
        </p>
        <p className="mt-2 flex gap-4">
          <Link className="underline" href={`/r/${r.id}`} data-testid="certificate-link">Certificate</Link>
          <Link className="underline" href={`/records/${r.id}`} data-testid="record-link">Record and lifecycle</Link>
        </p>
        {r.environment === "sandbox" && (
          <p className="mt-2 text-xs">A sandbox record is a test: its certificate says &ldquo;Sandbox — not verified&rdquo;. Switch to live for a record others can rely on.</p>
        )}
      </Alert>
    );
  }
  if (state.pending) {
    const r = state.pending;
    return (
      <Alert kind="info">
        <p data-testid="proof-pending" data-id={r.id}>
          Submitted for review as <code>{r.id}</code>, pending review: the source could not be asked just now, so a
          reviewer checks it instead. The challenge is used by this submission; the record issues once a reviewer confirms it.
        </p>
        <p className="mt-2"><Link className="underline" href={`/records/${r.id}`}>Follow it in Records</Link></p>
      </Alert>
    );
  }
  if (state.notFound) return <Alert kind="error"><span data-testid="proof-not-found">{state.notFound}</span></Alert>;
  if (state.error) return <Alert kind="error"><span data-testid="proof-error">{state.error}</span></Alert>;
  return null;
}

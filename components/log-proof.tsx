import type { LatestEntry } from "@/lib/tlog/store";

/**
 * The certificate's transparency-log section: which entry of the public, append-only log
 * records this record's latest change, and the proof that it is in a signed checkpoint.
 */
export function LogProof({ entry, environment, logUrl, base }: {
  entry: LatestEntry | "pending" | null; environment: string; logUrl: string; base: string;
}) {
  return (
    <section className="mt-4 rounded-lg bg-white p-5 text-sm shadow-sm ring-1 ring-slate-200" data-testid="log-proof">
      <h2 className="text-base font-semibold">Public log — nobody can quietly change this record</h2>
      {environment !== "live" ? (
        <p className="mt-2 text-slate-700">Sandbox records are not entered in the public transparency log.</p>
      ) : entry === "pending" || entry === null ? (
        <p className="mt-2 text-slate-700" data-testid="log-pending">
          The latest change is being entered in the public transparency log; its proof appears here within seconds.
        </p>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            Every issuance and status change is entered in an append-only, publicly signed log. This record&apos;s latest
            entry is <strong data-testid="log-index">{`#${entry.index}`}</strong>, included in the log of{" "}
            <span data-testid="log-tree-size">{entry.tree_size}</span> entries whose checkpoint is signed below.
          </p>
          <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
            <dt className="text-slate-500">Entry</dt><dd className="break-all"><code>{entry.leaf}</code></dd>
            <dt className="text-slate-500">Root hash</dt><dd className="break-all"><code>{entry.root_hash}</code></dd>
            <dt className="text-slate-500">Inclusion proof</dt>
            <dd className="break-all"><code data-testid="log-proof-hashes">{entry.inclusion_proof.length ? entry.inclusion_proof.join(" ") : "(none: the only entry)"}</code></dd>
          </dl>
          <details className="mt-2">
            <summary className="cursor-pointer text-slate-700">Signed checkpoint</summary>
            <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs" data-testid="log-checkpoint">{entry.checkpoint}</pre>
          </details>
          <p className="mt-2 text-slate-700">
            Check it offline with <code>npx prs-verify status</code>, against the log key at{" "}
            <a className="underline break-all" href={`${base}/log/key`}>{base}/log/key</a>; every entry of this record with its proof:{" "}
            <a className="underline break-all" href={logUrl}>{logUrl}</a>.
          </p>
        </>
      )}
    </section>
  );
}

import Link from "next/link";

export const inputClass =
  "mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:border-slate-500 focus:outline-none";
export const buttonClass =
  "inline-flex items-center rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600";
export const secondaryButtonClass =
  "inline-flex items-center rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50";

export function PortalHeader({ right, role }: { right?: React.ReactNode; role?: "customer" | "reviewer" | "admin" }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-4xl items-center justify-between px-6 py-3">
        <Link href="/" className="font-semibold">Proof Records</Link>
        <nav className="flex items-center gap-4 text-sm">
          {right && <Link href="/developers" className="underline">Developers</Link>}
          {right && <Link href="/records" className="underline">Records</Link>}
          {right && <Link href="/proofs" className="underline">Proofs</Link>}
          {(role === "reviewer" || role === "admin") && <Link href="/review" className="underline">Review</Link>}
          {role === "admin" && <Link href="/admin" className="underline">Admin</Link>}
          {right}
        </nav>
      </div>
    </header>
  );
}

export function Alert({ kind, children, id }: { kind: "error" | "info" | "success"; children: React.ReactNode; id?: string }) {
  const cls = {
    error: "border-red-300 bg-red-50 text-red-900",
    info: "border-sky-300 bg-sky-50 text-sky-900",
    success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  }[kind];
  return (
    <div id={id} role={kind === "error" ? "alert" : "status"} className={`mt-4 rounded border px-4 py-3 text-sm ${cls}`}>
      {children}
    </div>
  );
}

/** A secret shown once: selectable, with the warning that it will not be shown again. */
export function OnceSecret({
  label, secret, note = "Copy it now: it is shown only this once and cannot be recovered. Only its hash is stored.",
}: { label: string; secret: string; note?: string }) {
  return (
    <div className="mt-4 rounded border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950" data-testid="once-secret">
      <p className="font-medium">{label}</p>
      <code className="mt-2 block select-all break-all rounded bg-white px-3 py-2 font-mono text-slate-900" data-testid="secret-value">
        {secret}
      </code>
      <p className="mt-2">{note}</p>
    </div>
  );
}

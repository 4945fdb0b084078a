import Link from "next/link";
import { Fragment } from "react";
import { containerClass, tableClass } from "./classes";
import { CopyButton } from "./copy-button";
import { HeaderCheckLink } from "./site-chrome";

export { buttonClass, containerClass, dangerButtonClass, inputClass, secondaryButtonClass, tableClass } from "./classes";

export function PortalHeader({ right, role }: { right?: React.ReactNode; role?: "customer" | "reviewer" | "admin" }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className={`${containerClass} flex flex-wrap items-center justify-between gap-x-6 gap-y-2 py-3 ${right ? "" : "sm:justify-start"}`}>
        <Link href="/" className="font-semibold">Proof Records</Link>
        {/* Public pages (sign-in, sign-up, not found) carry it as every public header does; the signed-in portal as a plain link. */}
        {!right && <HeaderCheckLink />}
        <nav className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          {right && <Link href="/check" data-testid="header-check" className="font-medium text-emerald-800 underline">Check before you pay</Link>}
          {right && <Link href="/developers" className="underline">Developers</Link>}
          {right && <Link href="/records" className="underline">Records</Link>}
          {right && <Link href="/proofs" className="underline">Proofs</Link>}
          {right && <Link href="/organisation" className="underline">Organisation</Link>}
          {right && <Link href="/watches" className="underline">Watches</Link>}
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

/**
 * A page's content on the one layout grid (the header's width and left edge). `narrow`
 * keeps a single form (sign-in, sign-up) at a readable width, still on the same left edge.
 */
export function PortalMain({ children, narrow, className = "" }: { children: React.ReactNode; narrow?: boolean; className?: string }) {
  return (
    <main className={`${containerClass} py-10`} data-testid="portal-main">
      <div className={`${narrow ? "max-w-md" : ""} ${className}`.trim()}>{children}</div>
    </main>
  );
}

/**
 * Long identifiers (claim types, emails, ids) with line-break opportunities after `_`, `@`,
 * `.` and `-`, so a narrow column wraps them at a sensible place instead of mid-word or not at all.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[_@.\-])/);
  return <>{parts.map((p, i) => <Fragment key={i}>{i > 0 && <wbr />}{p}</Fragment>)}</>;
}

/** A refusal shown under the field it is about; the field points at it with aria-describedby. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return <p id={id} role="alert" className="mt-1 text-sm text-red-700" data-testid="field-error">{message}</p>;
}

/** A secret shown once: selectable, with the warning that it will not be shown again. */
export function OnceSecret({
  label, secret, copyLabel, id = "once-secret-value",
  note = "Copy it now: it is shown only this once and cannot be recovered. Only its hash is stored.",
}: { label: string; secret: string; copyLabel: string; id?: string; note?: string }) {
  return (
    <div className="mt-4 rounded border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950" data-testid="once-secret">
      <p className="font-medium">{label}</p>
      <code id={id} className="mt-2 block select-all break-all rounded bg-white px-3 py-2 font-mono text-slate-900" data-testid="secret-value">
        {secret}
      </code>
      <div className="mt-2"><CopyButton value={secret} label={copyLabel} targetId={id} /></div>
      <p className="mt-2">{note}</p>
    </div>
  );
}

/**
 * A portal table: scrolls sideways inside its box when wide, and on a phone each row stacks
 * into labelled lines (`stacked-table`; each cell names its column with `data-label`). `head`
 * names the columns ("" for an unnamed one, e.g. the actions); `className` spaces the box.
 */
export function DataTable({ head, testId, className = "", children }: {
  head: readonly string[]; testId?: string; className?: string; children: React.ReactNode;
}) {
  return (
    <div className={`${className} overflow-x-auto`.trim()}>
      <table className={tableClass} data-testid={testId}>
        <thead className="border-b border-slate-200 text-slate-500">
          <tr>{head.map((h, i) => <th key={i} className={i === 0 ? "py-2" : undefined}>{h}</th>)}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

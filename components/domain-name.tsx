import { domainDisplay, subjectDisplay, type DomainDisplay } from "@/lib/format/domain-display";

/**
 * A domain on a public page (CONTRACT "What still stands"): as typed when every label is
 * single-script and not confusable, otherwise with its A-label beside it and a warning
 * (lib/format/domain-display.ts decides). Server-rendered: no client code.
 */
export function DomainName({ domain }: { domain: string }) {
  return <Shown d={domainDisplay(domain)} />;
}

/** A record's subject: a domain as `DomainName` shows it, anything else as it is. */
export function SubjectName({ subject }: { subject: string }) {
  return <Shown d={subjectDisplay(subject)} />;
}

function Shown({ d }: { d: DomainDisplay }) {
  if (!d.aLabel) return <>{d.text}</>;
  return (
    <span data-testid="lookalike-domain" data-a-label={d.aLabel}>
      {`${d.text} `}
      <span className="font-mono">{`(${d.aLabel})`}</span>{" "}
      <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-950 ring-1 ring-amber-500">
        {`look-alike characters: the real address is ${d.aLabel}`}
      </span>
    </span>
  );
}

import type { ReactNode } from "react";
import { speakerName, WHO, type SpeakerAccount } from "@/lib/record-model/evidence-level-text";

/**
 * A name an account gave itself, shown as data (issue 38, "quoted names are rendered as data"):
 * an element of its own — isolated from the direction of the text around it, in a dashed box —
 * between the service's quotation marks, so it cannot read as the service's words. (A name
 * cannot bring its own quotation marks: lib/accounts/account-profile.ts refuses them.)
 */
export function SelfName({ name }: { name: string }) {
  return (
    <bdi className="rounded border border-dashed border-amber-700 bg-white px-1 font-mono text-[0.92em] font-normal text-slate-900 [overflow-wrap:anywhere]" data-testid="self-name">
      {name}
    </bdi>
  );
}

/**
 * A sentence of the trust decision's text with `{who}` (WHO) where the speaking account goes,
 * as lib/record-model/evidence-level-text.ts speakerName says it — a self-declared name as data.
 * The words around the name stay one text each (no split text nodes), so the sentence reads
 * the same in the page's source as on screen.
 */
export function WithSpeaker({ text, account }: { text: string; account: SpeakerAccount }) {
  const self = !account.name_verified && account.name ? account.name : null;
  if (self === null || !text.includes(WHO)) return <>{text.split(WHO).join(speakerName(account))}</>;
  const [first, ...rest] = text.split(WHO);
  const start = first === "" ? "An" : "an";
  const out: ReactNode[] = [`${first}${start} account calling itself “`];
  rest.forEach((after, i) => {
    out.push(<SelfName key={i} name={self} />);
    out.push(i < rest.length - 1 ? `” (name not verified)${after}an account calling itself “` : `” (name not verified)${after}`);
  });
  return <>{out}</>;
}

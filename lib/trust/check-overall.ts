/**
 * The /check answer as a whole (issue 38): one verdict and one sentence, decided here from the
 * parts' verdicts and the verified organisation each part is on record for — never by the page.
 *
 * - `match` only when every part given is `match` **for the same verified organisation**
 *   (the same account, not the same name); parts on record for different organisations are
 *   `mismatch`, naming each.
 * - Otherwise the worst part decides (mismatch, not_on_record, unverified_operator,
 *   close_match, match).
 * - With no operator given, the sentence names who the parts are on record for; it never says
 *   "everything you entered".
 * - An operator given as a bare name that several verified organisations hold (namesakes) is
 *   `close_match` at best, and the sentence asks for the LEI or the website.
 * - An operator that is one verified organisation, with a website or payee on record only
 *   through other accounts (one may carry its very name): `mismatch` — "not on record for ‹X›,
 *   a verified organisation" — never an amber caution beside a green match.
 * - A value whose record Proof Records staff took down is `mismatch` unless a verified
 *   organisation vouches for it now: "Proof Records took a record with this payee down on
 *   ‹date›: ‹reason›. Do not pay."
 */
export type Verdict = "match" | "close_match" | "mismatch" | "unverified_operator" | "not_on_record";
export const VERDICTS = ["match", "close_match", "mismatch", "unverified_operator", "not_on_record"] as const;

export type PartName = "operator" | "website" | "payee";
/** What the composition needs of a part: its verdict, the name it is on record for, and that organisation's account (null: none verified). */
export type PartVerdict = {
  verdict: Verdict;
  on_record_for: string | null;
  organisation: string | null;
  /** The operator part: more than one verified organisation holds the name asked (namesakes). */
  shared_name?: boolean;
  /** Proof Records staff took down a record holding the value (lib/trust/taken-down.ts). */
  taken_down?: { at: string; reason: string } | null;
};

const SEVERITY: Record<Verdict, number> = { mismatch: 4, not_on_record: 3, unverified_operator: 2, close_match: 1, match: 0 };
const LABEL: Record<PartName, string> = { operator: "the operator", website: "the website", payee: "the payee" };
const ORDER: PartName[] = ["operator", "website", "payee"];

/** The worst verdict of the parts. */
const worstVerdict = (verdicts: readonly Verdict[]): Verdict =>
  verdicts.reduce<Verdict>((worst, v) => (SEVERITY[v] > SEVERITY[worst] ? v : worst), "match");

const list = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function composeCheck(parts: Partial<Record<PartName, PartVerdict>>, operatorAsked: boolean): { overall: Verdict; summary: string } {
  const given = ORDER.filter((k) => parts[k]).map((k) => [k, parts[k]!] as const);
  const worst = worstVerdict(given.map(([, p]) => p.verdict));
  // Parts that name a verified organisation: all must name the same one.
  const naming = given.filter(([, p]) => p.organisation !== null && (p.verdict === "match" || p.verdict === "close_match"));
  const organisations = new Set(naming.map(([, p]) => p.organisation));
  if (organisations.size > 1) {
    const each = naming.map(([k, p]) => `${LABEL[k]} is on record for ${p.on_record_for}`);
    return {
      overall: "mismatch",
      summary: `Stop: ${list(each)} — different organisations. Do not pay until you have checked who you are dealing with.`,
    };
  }
  const org = naming[0]?.[1].on_record_for ?? null;
  switch (worst) {
    case "match":
      return {
        overall: "match",
        summary: operatorAsked
          ? `Everything you entered is on record for ${org}, a verified organisation, and still stands.`
          : `${capital(list(given.map(([k]) => LABEL[k])))} ${given.length > 1 ? "are" : "is"} on record for ${org}, a verified organisation, and still ${given.length > 1 ? "stand" : "stands"}. Make sure ${org} is who you mean to pay.`,
      };
    case "close_match": {
      const shared = parts.operator?.shared_name ? parts.operator.on_record_for : null;
      if (shared !== null) {
        const tied = naming.filter(([k]) => k !== "operator").map(([k]) => LABEL[k]);
        return {
          overall: "close_match",
          summary: tied.length > 0
            ? `More than one verified organisation is called ${shared}; ${list(tied)} ${tied.length > 1 ? "are" : "is"} on record for one of them. Check its LEI on the certificate before you pay.`
            : `More than one verified organisation is called ${shared}. Give its LEI or its website to tell which one you mean.`,
        };
      }
      return { overall: "close_match", summary: `On record for ${org}, a verified organisation whose name differs slightly from the one you entered: check the name before you pay.` };
    }
    case "mismatch": {
      const down = given.filter(([, p]) => p.verdict === "mismatch" && p.taken_down);
      if (down.length > 0) {
        const each = down.map(([k, p]) => `Proof Records took a record with ${LABEL[k].replace(/^the /, "this ")} down on ${p.taken_down!.at.slice(0, 10)}: ${p.taken_down!.reason}`);
        return { overall: "mismatch", summary: `Stop: ${each.join("; ")}. Do not pay.` };
      }
      const wrong = given.filter(([, p]) => p.verdict === "mismatch");
      // On record only through accounts that are not the verified organisation asked (perhaps under its very name).
      const notTheirs = wrong.filter(([, p]) => p.organisation === null).map(([k]) => LABEL[k]);
      const other = wrong.filter(([, p]) => p.organisation !== null).map(([k, p]) => `${LABEL[k]} is on record for ${p.on_record_for}, a different operator`);
      const asked = parts.operator?.verdict === "match" ? parts.operator.on_record_for : null;
      if (notTheirs.length > 0 && asked !== null) {
        other.unshift(`${list(notTheirs)} ${notTheirs.length > 1 ? "are" : "is"} not on record for ${asked}, a verified organisation — only for another account, whose name nobody verified`);
      }
      return { overall: "mismatch", summary: `Stop: ${list(other)}. Do not pay until you have checked.` };
    }
    case "unverified_operator":
      return { overall: "unverified_operator", summary: "Caution: this is on record only through an account that is not a verified organisation. Its name is its own word." };
    case "not_on_record":
      return { overall: "not_on_record", summary: "Not everything you entered is on record. That proves nothing either way — ask the operator for a Proof Records certificate." };
  }
}

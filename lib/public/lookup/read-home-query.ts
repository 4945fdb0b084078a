import { isValidLei } from "@/lib/connectors/lei-format";
import { recordIdFromInput } from "@/lib/record-model/record-id-from-input";
import { noControl, noHiddenText } from "@/lib/record-model/schemas";
import type { LookupRequest } from "./lookup-query";
import { detect, type LookupKind } from "@/lib/format/normalize";

/** At most this many characters are read from the home page's box (the lookup API takes 500). */
export const HOME_QUERY_MAX = 500;

/**
 * What a visitor typed into the home page's one box (app/page.tsx), read as the public lookup
 * reads `q` (CONTRACT "Lookup"): a record id or certificate link opens the certificate; any
 * other value is a lookup request; anything else is refused with a sentence a stranger can
 * act on (never the API's wording with `'q'` and `type`). Pure: no I/O.
 */
export type HomeQuery =
  | { kind: "record"; id: string }
  /** A company's name or LEI: answered by /check's operator part (issue 38, item 12). */
  | { kind: "operator"; operator: string }
  | { kind: "lookup"; request: LookupRequest }
  | { kind: "refused"; message: string };

const EXAMPLES = "a record id (PRS-…), a company's name or LEI, an IBAN, a wallet address, a website or a listing link";

/** Words of a company's name: letters and digits of any script, with the marks names carry (& ' . , ( ) -). */
const NAME = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}&'’.,()\- ]*$/u;

/**
 * Several words, at least two of them words of letters and one of three letters or more: a
 * company's name ("Seaview Apartments Ltd", "Müller & Söhne GmbH"), not an IBAN or a licence
 * number typed with spaces ("DE89 3704 …", "HPI 1234").
 */
function looksLikeName(text: string): boolean {
  if (!/\s/.test(text) || !NAME.test(text)) return false;
  const wordsOfLetters = text.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w) && !/\p{N}/u.test(w));
  return wordsOfLetters.length >= 2 && wordsOfLetters.some((w) => (w.match(/\p{L}/gu) ?? []).length >= 3);
}

export function readHomeQuery(typed: string): HomeQuery {
  const text = typed.trim();
  if (text === "") return { kind: "refused", message: `Type ${EXAMPLES}.` };
  if (text.length > HOME_QUERY_MAX) return { kind: "refused", message: `That is too long: at most ${HOME_QUERY_MAX} characters.` };
  if (!noControl.test(text) || !noHiddenText.test(text) || text.includes("\uFFFD")) {
    return { kind: "refused", message: "That holds hidden or control characters: type the value again rather than pasting it." };
  }
  // A record id with its PRS- (or in a certificate link) opens the certificate.
  if (/PRS-/i.test(text)) {
    const id = recordIdFromInput(text);
    if (id) return { kind: "record", id };
    // Meant as a record id (or its certificate link) but not a well-formed one: never looked up as a licence number or handle.
    return { kind: "refused", message: "That is not a record id. A record id is PRS- followed by 20 letters and digits, e.g. PRS-01JQ8Z3M7T5W9XKD4RBN." };
  }
  // An LEI, with or without the spaces it is often printed with (before a bare record id: both are 20 letters and digits).
  const compact = text.replace(/\s+/g, "").toUpperCase();
  if (isValidLei(compact)) return { kind: "operator", operator: compact };
  const id = recordIdFromInput(text);
  if (id) return { kind: "record", id };
  // Words that read as a company's name (not an IBAN or a licence number typed with spaces).
  if (looksLikeName(text)) return { kind: "operator", operator: text.replace(/\s+/g, " ") };
  const found = detect(text);
  if ("candidates" in found) return { kind: "lookup", request: { query: text, candidates: found.candidates } };
  switch (found.error.code) {
    case "invalid_iban":
      return { kind: "refused", message: "That looks like an IBAN, but its check digits are wrong: check it for a typo." };
    case "invalid_address":
      return { kind: "refused", message: "That looks like a wallet address, but it is not a valid one (length, characters or checksum): check it for a typo." };
    default:
      return { kind: "refused", message: `We could not tell what that is. Type ${EXAMPLES}.` };
  }
}

/** The /check field a looked-up kind goes into, if any: the full check takes a website and a payee (app/check/page.tsx). */
export function checkFieldFor(kind: LookupKind): "website" | "payee" | null {
  if (kind === "iban" || kind === "wallet") return "payee";
  if (kind === "website" || kind === "listing_url") return "website";
  return null;
}

/** What a looked-up kind is called in a sentence. */
export const KIND_NAME: Record<LookupKind, string> = {
  iban: "IBAN",
  wallet: "wallet address",
  website: "website",
  listing_url: "listing link",
  licence_number: "licence number",
  social_handle: "handle",
};

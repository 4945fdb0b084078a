import { domainToASCII, domainToUnicode } from "node:url";
import unhomoglyph from "unhomoglyph";
import propertyValueAliases from "unicode-property-value-aliases-ecmascript";

/**
 * How a domain is shown on every public surface (CONTRACT "What still stands": look-alike
 * domains). A domain is shown as typed only when every label is single-script and not
 * confusable (Unicode TR39); otherwise its A-label (`xn--…`) is shown beside it, so
 * `аррӏе.com` in Cyrillic reads "аррӏе.com (xn--80ak6aa92e.com)" and nobody takes it for
 * apple.com. The one place this is decided: the certificate, /check, the directory and the
 * signed status's `display` hint (which the embed badge shows) all call it.
 *
 * - Mixed-script detection (TR39 §5.1): a label's resolved script set — the intersection of
 *   each character's augmented Script_Extensions, Common and Inherited counting as every
 *   script — must not be empty. Script_Extensions come from the JavaScript engine's own
 *   Unicode data (`\p{scx=…}`), the script names from unicode-property-value-aliases-ecmascript.
 * - Confusable detection (TR39 §4): a label is confusable when one of its non-ASCII
 *   characters has a skeleton other than itself in Unicode's confusables.txt (unhomoglyph,
 *   which carries that file) — then a different string has the same skeleton. ASCII is the
 *   reference repertoire: `rn` and `m` in an ASCII name are what the reader sees anyway.
 */

export type DomainDisplay = {
  /** The domain as typed (lower case). */
  text: string;
  /** Its A-label, when it must be shown beside `text`; null when `text` is shown alone. */
  aLabel: string | null;
};

const ASCII = /^[\x00-\x7f]*$/;

/** `domain` as a public page shows it: as typed, with its A-label when a label is mixed-script or confusable. */
export function domainDisplay(domain: string): DomainDisplay {
  const text = domain.trim().toLowerCase();
  if (ASCII.test(text)) return { text, aLabel: null };
  const ascii = domainToASCII(text);
  // Not a domain name IDNA accepts: nothing to show beside it, but never pass it off as plain.
  if (!ascii) return { text, aLabel: "not a valid domain name" };
  const plain = domainToUnicode(ascii).split(".").every(isPlainLabel);
  return { text, aLabel: plain ? null : ascii };
}

/** One string for a surface that has only text (the badge, a title): `аррӏе.com (xn--80ak6aa92e.com)`. */
export function domainDisplayText(domain: string): string {
  const d = domainDisplay(domain);
  return d.aLabel ? `${d.text} (${d.aLabel})` : d.text;
}

/** One label: ASCII, or single-script and without a confusable character. */
export function isPlainLabel(label: string): boolean {
  if (ASCII.test(label)) return true;
  return resolvedScripts(label).size > 0 && !hasConfusable(label);
}

function hasConfusable(label: string): boolean {
  for (const ch of label.normalize("NFD")) {
    if (ASCII.test(ch)) continue;
    if (unhomoglyph(ch).normalize("NFD") !== ch) return true;
  }
  return false;
}

const ALL = "*";
let scriptTests: { name: string; re: RegExp }[] | null = null;

/** Every Script value the engine knows, as a `\p{scx=…}` test (a name it does not know is skipped). */
function scriptsKnown() {
  if (scriptTests) return scriptTests;
  const names = new Set(propertyValueAliases.get("Script")?.values() ?? []);
  const tests: { name: string; re: RegExp }[] = [];
  for (const name of names) {
    try {
      tests.push({ name, re: new RegExp(`^\\p{scx=${name}}$`, "u") });
    } catch {
      /* a script newer than this engine's Unicode data: no character of it can be matched anyway */
    }
  }
  return (scriptTests = tests);
}

const scxCache = new Map<string, Set<string>>();

/** TR39 §5.1 augmented script set of one character; {ALL} for Common and Inherited. */
function augmentedScripts(ch: string): Set<string> {
  const hit = scxCache.get(ch);
  if (hit) return hit;
  const set = new Set(scriptsKnown().filter((t) => t.re.test(ch)).map((t) => t.name));
  if (set.has("Common") || set.has("Inherited")) {
    set.clear();
    set.add(ALL);
  }
  if (set.has("Han")) ["Han_with_Bopomofo", "Japanese", "Korean"].forEach((s) => set.add(s));
  if (set.has("Hiragana") || set.has("Katakana")) set.add("Japanese");
  if (set.has("Hangul")) set.add("Korean");
  if (set.has("Bopomofo")) set.add("Han_with_Bopomofo");
  if (scxCache.size < 10_000) scxCache.set(ch, set);
  return set;
}

/** The resolved script set of a string (TR39 §5.1): empty when it mixes scripts. */
export function resolvedScripts(text: string): Set<string> {
  let resolved: Set<string> = new Set([ALL]);
  for (const ch of text.normalize("NFD")) {
    const s = augmentedScripts(ch);
    if (s.has(ALL)) continue;
    resolved = resolved.has(ALL) ? new Set(s) : new Set([...resolved].filter((x) => s.has(x)));
    if (resolved.size === 0) break;
  }
  return resolved;
}

/**
 * A record's subject as shown publicly: a subject that is a domain name (has a dot, no space,
 * and IDNA accepts it) by `domainDisplay`; any other subject (a company, a wallet) as it is.
 */
export function subjectDisplay(subject: string): DomainDisplay {
  const s = subject.trim();
  if (!s.includes(".") || /\s/.test(s) || ASCII.test(s) || !domainToASCII(s.toLowerCase())) return { text: subject, aLabel: null };
  return domainDisplay(s);
}

/** `subjectDisplay` as one string (titles, the signed status's `display` hint). */
export function subjectDisplayText(subject: string): string {
  const d = subjectDisplay(subject);
  return d.aLabel ? `${d.text} (${d.aLabel})` : d.text;
}

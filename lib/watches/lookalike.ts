import { domainToUnicode } from "node:url";
import { parse } from "tldts";
import { nameKey, registrableDomain, skeletonOf } from "./watch-value";

/**
 * Look-alike domains and names as a scammer makes them (dnstwist-style), on top of the TR39
 * skeleton (watch-value.ts). Pure: no I/O.
 *
 * Catches, for a domain's label left of its public suffix (the suffix must be identical) and
 * for a name (letters and digits only, spaces and punctuation dropped):
 * - homoglyphs: TR39 confusables (`exаmple` with a Cyrillic `а`) and the ASCII tricks of
 *   LOOKALIKE_FOLDS (`rnicrosoft`, `examp1e`, `g00gle`, `brightkettie`), any number of them;
 * - after that folding, one edit: an insertion (`examplle`), a deletion (`exampe`), a
 *   substitution (`exbmple`) or a swap of two neighbouring letters (`examlpe`).
 * Does not catch: another public suffix (`example.net` for `example.com`), added words or
 * hyphens (`example-shop.com`), subdomains (`example.com.evil.net` is `evil.net`), two or more
 * edits, or — to keep the noise down — one edit to a name shorter than NAME_EDIT_MIN_LENGTH,
 * a label shorter than DOMAIN_EDIT_MIN_LENGTH, or a label longer than EDIT_MAX_LENGTH
 * (those match only when equal after folding). Edits count after folding, so a typo that
 * makes or breaks a folded pair can be two edits there: `examcle` (`cl` → `d`) for `example`,
 * `aloudflare` for `cloudflare` (`doudflare`) are missed.
 *
 * Indexable: a value is stored under `lookalikeKeys` and a candidate is looked up by equality
 * on its own keys (symmetric delete: the folded form plus each form with one character
 * deleted; two strings within one edit share a key). A key hit is then confirmed with
 * `compareValues`, which says "lookalike" only for pairs whose keys do meet.
 */
export type LookalikeKind = "domain" | "name";

/**
 * The ASCII look-alikes, each folded to the one form on the right, applied after lower case
 * and the TR39 skeleton until nothing changes. The skeleton already maps `m` → `rn` and
 * `1`, `I`, `|` → `l`, `0` → `O`; these make `rn` and `m` one form (`m`), and `i`, `l`, `1`
 * one form (`l`; an upper case `I` is `i` by then). Single letters first: `ci` → `cl` → `d`.
 */
export const LOOKALIKE_FOLDS: readonly (readonly [from: string, to: string])[] = [
  ["1", "l"],
  ["i", "l"],
  ["0", "o"],
  ["5", "s"],
  ["rn", "m"],
  ["vv", "w"],
  ["cl", "d"],
];
/** Names shorter than this (folded, in code points) get only their exact key: one edit to `acme` is `acne`. */
export const NAME_EDIT_MIN_LENGTH = 5;
/** Labels shorter than this get only their exact key (a one-letter label's deletion would be the bare suffix). */
export const DOMAIN_EDIT_MIN_LENGTH = 2;
/** Labels and names longer than this (a DNS label's limit) get only their exact key. */
export const EDIT_MAX_LENGTH = 63;

/** Lower case, TR39 skeleton, lower case again (the skeleton writes `0` as `O`), then LOOKALIKE_FOLDS to a fixed point. */
export function asciiFold(label: string): string {
  return applyFolds(skeletonOf(label.toLowerCase()).toLowerCase());
}

function applyFolds(text: string): string {
  let out = text;
  for (let prev = ""; prev !== out; ) {
    prev = out;
    for (const [from, to] of LOOKALIKE_FOLDS) out = out.split(from).join(to);
  }
  return out;
}

/** A value in folded form: `key` is the normal form "exact" compares, `label` the folded part edits apply to. */
type Folded = { key: string; label: string; suffix: string; kind: LookalikeKind };

function fold(value: string, kind: LookalikeKind): Folded | null {
  if (kind === "domain") {
    const domain = registrableDomain(value);
    if (!domain) return null;
    const { domainWithoutSuffix, publicSuffix } = parse(domain, { allowPrivateDomains: false });
    if (!domainWithoutSuffix || !publicSuffix) return null;
    const label = asciiFold(domainToUnicode(domainWithoutSuffix) || domainWithoutSuffix);
    return label ? { key: domain, label, suffix: publicSuffix, kind } : null;
  }
  const key = nameKey(value);
  // Punctuation is dropped after the skeleton (which maps some of it, `|` → `l`) and before the folds.
  const label = applyFolds(skeletonOf(key).toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, ""));
  return label ? { key, label, suffix: "", kind } : null;
}

const codePoints = (s: string) => Array.from(s);

function editable(f: Folded): boolean {
  const n = codePoints(f.label).length;
  return n >= (f.kind === "name" ? NAME_EDIT_MIN_LENGTH : DOMAIN_EDIT_MIN_LENGTH) && n <= EDIT_MAX_LENGTH;
}

const keyOf = (f: Folded, label: string) => (f.kind === "domain" ? `${label}.${f.suffix}` : label);

/**
 * The keys a value is stored and looked up under: its folded form (`folded.suffix` for a
 * domain) and, unless its length is outside the edit limits, that form with each one
 * character (code point) deleted. At most length + 1 keys; none for a value that is not a
 * domain (or name) at all.
 */
export function lookalikeKeys(value: string, kind: LookalikeKind): string[] {
  const f = fold(value, kind);
  if (!f) return [];
  const keys = new Set([keyOf(f, f.label)]);
  if (editable(f)) {
    const cps = codePoints(f.label);
    for (let i = 0; i < cps.length; i++) keys.add(keyOf(f, [...cps.slice(0, i), ...cps.slice(i + 1)].join("")));
  }
  return [...keys];
}

/** Optimal string alignment (restricted Damerau–Levenshtein) distance, over code points. */
function osaDistance(a: string[], b: string[]): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i];
    if (!row) continue;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, at(i - 2, j - 2) + 1);
      row[j] = d;
    }
  }
  return at(a.length, b.length);
}

/**
 * How two values of one kind compare: "exact" when their normal forms are the same (the same
 * registrable domain; the same nameKey), "lookalike" when they differ but fold to the same
 * form or to forms one edit apart (both within the edit limits; a domain's public suffix
 * identical), else null (also when either is not a domain or name at all).
 */
export function compareValues(a: string, b: string, kind: LookalikeKind): "exact" | "lookalike" | null {
  const fa = fold(a, kind);
  const fb = fold(b, kind);
  if (!fa || !fb || fa.suffix !== fb.suffix) return null;
  if (fa.key === fb.key) return "exact";
  if (fa.label === fb.label) return "lookalike";
  return editable(fa) && editable(fb) && osaDistance(codePoints(fa.label), codePoints(fb.label)) <= 1 ? "lookalike" : null;
}

/** The confirmation after a key hit: the two are look-alikes, not the same value. */
export function isLookalike(a: string, b: string, kind: LookalikeKind): boolean {
  return compareValues(a, b, kind) === "lookalike";
}

/** A watch's look-alike keys (watches.lookalike_keys): names and domains only. */
export const watchLookalikeKeys = (kind: string, value: string): string[] =>
  kind === "name" || kind === "domain" ? lookalikeKeys(value, kind) : [];

import { domainToUnicode } from "node:url";
import { getDomain } from "tldts";
import unhomoglyph from "unhomoglyph";
import { isValidLei } from "@/lib/connectors/lei-format";
import type { FieldError } from "@/lib/http/errors";
import { normalizeIban, normalizeWallet } from "@/lib/format/normalize";
import { normalizeDomain } from "@/lib/proofs/domain-name";

/**
 * What an impersonation watch compares: each value in one normal form per kind (its
 * `match_key`) and, for names and domains, the TR39 skeleton of that form. Pure: no I/O.
 *
 * - iban, wallet: as the public lookup writes them (lib/format/normalize.ts).
 * - domain: the registrable domain (tldts, ICANN suffixes), lower case, IDN as punycode;
 *   `shop.example.com` and `https://www.example.com/x` watch `example.com`.
 * - lei: ISO 17442 (18 characters and two MOD 97-10 check digits), upper case.
 * - name: NFKC, case-folded, whitespace collapsed.
 *
 * The skeleton is Unicode TR39's (§4: NFD, each character mapped by confusables.txt, NFD
 * again) with the library the display rules use (unhomoglyph, lib/format/domain-display.ts),
 * of the Unicode form (a domain's U-label): Latin `example.com` and `exаmple.com` with a
 * Cyrillic `а` have the same one.
 */
export const WATCH_KINDS = ["name", "domain", "iban", "wallet", "lei"] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];
/** At most this many watches per account (defaults included): 422 watch_limit_reached beyond. */
export const WATCH_LIMIT = 200;
export type WatchValue = { matchKey: string; skeleton: string | null };

export function skeletonOf(text: string): string {
  return unhomoglyph(text.normalize("NFD")).normalize("NFD");
}

/** A name in the form watches compare: NFKC, case-folded (toLowerCase after toUpperCase folds ß → ss), one space between words. */
export function nameKey(text: string): string {
  return text.normalize("NFKC").toUpperCase().toLowerCase().replace(/\s+/gu, " ").trim();
}

/** The registrable domain of a host or address (punycode), or null. */
export function registrableDomain(text: string): string | null {
  const raw = text.trim();
  let host = raw;
  if (/[/:?#@]/.test(raw)) {
    try {
      host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`).hostname;
    } catch {
      return null;
    }
  }
  const n = normalizeDomain(host);
  if ("error" in n) return null;
  return getDomain(n.domain, { allowPrivateDomains: false });
}

const domainSkeleton = (ascii: string) => skeletonOf(domainToUnicode(ascii) || ascii);

const fail = (code: FieldError["code"], message: string): { error: FieldError } => ({ error: { code, param: "value", message } });

/** `text` as a watch of `kind`, or the 422 saying why it is not one. */
export function watchValue(kind: WatchKind, text: string): WatchValue | { error: FieldError } {
  switch (kind) {
    case "name": {
      const key = nameKey(text);
      if (key.length < 2 || !/\p{L}/u.test(key)) return fail("invalid_name", "A watched name has at least two characters, one of them a letter.");
      return { matchKey: key, skeleton: skeletonOf(key) };
    }
    case "domain": {
      const d = registrableDomain(text);
      return d ? { matchKey: d, skeleton: domainSkeleton(d) }
        : fail("invalid_domain", "Not a domain under a public suffix: send a domain such as example.com (a web address gives its domain).");
    }
    case "iban": {
      const v = normalizeIban(text);
      return v ? { matchKey: v, skeleton: null } : fail("invalid_iban", "Not an IBAN: its country, length or check digits are wrong.");
    }
    case "wallet": {
      const v = normalizeWallet(text);
      return v ? { matchKey: v, skeleton: null }
        : fail("invalid_address", "Not a wallet address: an EVM 0x address, a bitcoin 1…, 3… or bc1… address, or a solana address.");
    }
    case "lei": {
      const v = text.replace(/\s+/g, "").toUpperCase();
      return isValidLei(v) ? { matchKey: v, skeleton: null }
        : fail("invalid_lei", "Not an LEI (ISO 17442): 18 letters or digits and two check digits.");
    }
  }
}

/** The domain skeleton of a registrable domain already in normal form (a record's website value's domain). */
export const domainKeySkeleton = domainSkeleton;

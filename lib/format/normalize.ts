import * as bitcoin from "bitcoinjs-lib";
import bs58 from "bs58";
import { countrySpecs, electronicFormatIBAN, isValidIBAN } from "ibantools";
import { parse } from "tldts";
import { isAddress } from "viem";
import type { ErrorCode } from "@/lib/http/errors";

/**
 * The kinds of value the public lookup answers about, and how each is written when it is
 * stored and when it is asked for (CONTRACT "Lookup"): one normal form per kind, so a lookup
 * is an exact match. Pure: no I/O, no clock.
 */
export const LOOKUP_KINDS = ["iban", "wallet", "website", "listing_url", "licence_number", "social_handle"] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export type LookupValue = { kind: LookupKind; value: string };

/** Why a text is not a value of its kind: the 422 code and message the lookup answers. */
export type NotAValue = { code: ErrorCode; message: string };

type Normalized = { value: string } | { error: NotAValue };

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const LICENCE = /^[A-Z0-9][A-Z0-9./_-]{0,63}$/;
const HANDLE = /^[a-z0-9_][a-z0-9_.-]{0,63}$/;

/** IBAN: without spaces, upper case, and only with valid check digits (ibantools: ISO 13616 length and mod-97). */
export function normalizeIban(text: string): string | null {
  const iban = electronicFormatIBAN(text.trim());
  return iban && isValidIBAN(iban) ? iban : null;
}

/**
 * A wallet address in the form its family compares by: EVM (0x + 40 hex, any case) in
 * lower case, bitcoin bech32 (bc1…, one case, valid checksum) in lower case, bitcoin
 * base58check (1…, 3…) and solana (base58 of 32 bytes) exactly as written.
 */
export function normalizeWallet(text: string): string | null {
  const a = text.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(a)) return isAddress(a, { strict: false }) ? a.toLowerCase() : null;
  if (/^bc1/i.test(a)) {
    if (a !== a.toLowerCase() && a !== a.toUpperCase()) return null; // BIP-173: never mixed case
    try {
      bitcoin.address.fromBech32(a.toLowerCase());
      return a.toLowerCase();
    } catch {
      return null;
    }
  }
  if (!BASE58.test(a)) return null;
  if (/^[13]/.test(a) && a.length >= 26 && a.length <= 35) {
    try {
      const { version } = bitcoin.address.fromBase58Check(a);
      if (version === 0x00 || version === 0x05) return a;
    } catch {
      /* not base58check: maybe a solana address */
    }
  }
  if (a.length >= 32 && a.length <= 44) {
    try {
      if (bs58.decode(a).length === 32) return a;
    } catch {
      /* not base58 */
    }
  }
  return null;
}

/** Licence numbers: upper case, without spaces; letters, digits and . / _ - only. */
export function normalizeLicence(text: string): string | null {
  const v = text.replace(/\s+/g, "").toUpperCase();
  return LICENCE.test(v) ? v : null;
}

/** A handle: lower case, without the leading `@`. */
function bareHandle(text: string): string | null {
  const v = text.trim().replace(/^@/, "").toLowerCase();
  return HANDLE.test(v) ? v : null;
}

/**
 * Profile pages whose path names the handle, by host (after `www.`, `m.`, `mobile.`), and the
 * first path segments that are the site's own pages rather than a person's.
 */
const PROFILES: Record<string, { path: RegExp; reserved?: readonly string[] }> = {
  "x.com": { path: /^\/([a-z0-9_]{1,15})$/i, reserved: ["home", "explore", "search", "i", "settings", "messages", "notifications", "login", "signup", "intent", "share", "hashtag", "tos", "privacy"] },
  "twitter.com": { path: /^\/([a-z0-9_]{1,15})$/i, reserved: ["home", "explore", "search", "i", "settings", "messages", "notifications", "login", "signup", "intent", "share", "hashtag", "tos", "privacy"] },
  "instagram.com": { path: /^\/([a-z0-9_.]{1,30})$/i, reserved: ["explore", "accounts", "direct", "reels", "stories", "about", "legal"] },
  "t.me": { path: /^\/([a-z0-9_]{4,32})$/i, reserved: ["joinchat", "addstickers", "share", "proxy", "socks", "contact"] },
  "telegram.me": { path: /^\/([a-z0-9_]{4,32})$/i, reserved: ["joinchat", "addstickers", "share", "proxy", "socks", "contact"] },
  "github.com": {
    path: /^\/([a-z0-9-]{1,39})$/i,
    reserved: ["orgs", "settings", "login", "join", "features", "marketplace", "topics", "explore", "about", "pricing", "sponsors", "apps", "enterprise", "notifications", "pulls", "issues", "new", "search", "trending", "collections", "security"],
  },
  "tiktok.com": { path: /^\/@([a-z0-9_.]{1,24})$/i },
  "youtube.com": { path: /^\/@([a-z0-9_.-]{3,30})$/i },
  "threads.net": { path: /^\/@([a-z0-9_.]{1,30})$/i },
  "threads.com": { path: /^\/@([a-z0-9_.]{1,30})$/i },
  "facebook.com": { path: /^\/([a-z0-9.]{5,50})$/i, reserved: ["profile.php", "groups", "pages", "events", "marketplace", "watch", "login", "share", "sharer", "photo.php", "gaming", "help", "policies"] },
  "linkedin.com": { path: /^\/in\/([a-z0-9-]{3,100})$/i },
};

type WebAddress = { host: string; port: string; path: string; search: string };

/**
 * Read a web address, with or without `http(s)://`: its host (lower case, IDN as punycode,
 * no trailing dot), a non-default port, the path without trailing slashes and the query.
 * Null when it is not one: another scheme, credentials, spaces, or a host that is not a
 * name under a public suffix (no IP addresses, `localhost` or bare suffixes).
 */
function readWebAddress(text: string): WebAddress | null {
  const s = text.trim();
  if (s === "" || /\s/.test(s)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s);
  if (scheme && !/^https?$/i.test(scheme[1]!)) return null;
  let url: URL;
  try {
    url = new URL(scheme ? s : `https://${s}`);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/\.$/, "");
  if (host.length > 253 || !host.split(".").every((l) => LABEL.test(l))) return null;
  const info = parse(host, { allowPrivateDomains: false });
  if (info.isIp || !info.isIcann || !info.domain) return null;
  const search = url.search === "?" ? "" : url.search;
  return { host, port: url.port, path: url.pathname.replace(/\/+$/, ""), search };
}

/**
 * The host a website value names, as written (lower case, IDN as punycode), `www.` kept: what a
 * proof of it covers exactly (CONTRACT "Embed badge"). Null when it is not a web address.
 */
export function provedHost(text: string): string | null {
  return readWebAddress(text)?.host ?? null;
}

/** `www.example.com` → `example.com`; never down to a bare suffix (`www.co.uk` stays). */
function withoutWww(host: string): string {
  if (!host.startsWith("www.")) return host;
  const rest = host.slice(4);
  return parse(rest, { allowPrivateDomains: false }).domain ? rest : host;
}

/** The handle a profile URL names (a query such as `?s=20` aside), or null when the address is not a profile page. */
function profileHandle(a: WebAddress): string | null {
  const site = PROFILES[a.host.replace(/^(www|m|mobile)\./, "")];
  const m = site?.path.exec(a.path);
  if (!site || !m || site.reserved?.includes(m[1]!.toLowerCase())) return null;
  return bareHandle(m[1]!);
}

const websiteOf = (a: WebAddress) => withoutWww(a.host);
const listingOf = (a: WebAddress) => `https://${withoutWww(a.host)}${a.port ? `:${a.port}` : ""}${a.path}${a.search}`;

const fail = (code: ErrorCode, message: string): { error: NotAValue } => ({ error: { code, message } });

/**
 * `text` written as a value of `kind`, or why it is not one. What records store and what a
 * lookup with `type` asks for.
 */
export function normalizeAs(kind: LookupKind, text: string): Normalized {
  switch (kind) {
    case "iban": {
      const v = normalizeIban(text);
      return v ? { value: v } : fail("invalid_iban", "'q' is not an IBAN: its country, length or check digits are wrong.");
    }
    case "wallet": {
      const v = normalizeWallet(text);
      return v
        ? { value: v }
        : fail("invalid_address", "'q' is not a wallet address: an EVM 0x address, a bitcoin 1…, 3… or bc1… address, or a solana address.");
    }
    case "website": {
      const a = readWebAddress(text);
      return a ? { value: websiteOf(a) } : fail("invalid_domain", "'q' is not a website: send a domain such as example.com, or a web address.");
    }
    case "listing_url": {
      const a = readWebAddress(text);
      return a ? { value: listingOf(a) } : fail("invalid_format", "'q' is not a web address such as https://example.com/listing/123.");
    }
    case "licence_number": {
      const v = normalizeLicence(text);
      return v ? { value: v } : fail("invalid_format", "'q' is not a licence number: letters, digits, spaces and . / _ - only, at most 64.");
    }
    case "social_handle": {
      const a = /^@/.test(text.trim()) ? null : readWebAddress(text);
      const v = (a && profileHandle(a)) ?? bareHandle(text);
      return v ? { value: v } : fail("invalid_format", "'q' is not a handle (@name, or a profile address such as https://x.com/name).");
    }
  }
}

/** A value of `kind`, or null: how a claim type's raw values are stored (lib/record-model/record-values.ts). */
export function normalizedValue(kind: LookupKind, text: string): string | null {
  const n = normalizeAs(kind, text);
  return "value" in n ? n.value : null;
}

/** An IBAN of a country that has them, at that country's length, in upper case: meant as an IBAN, whatever its check digits. */
function meantAsIban(text: string): boolean {
  const compact = text.trim().replace(/[\s-]/g, "");
  const m = /^([A-Z]{2})\d{2}[A-Za-z0-9]+$/.exec(compact);
  const chars = m ? (countrySpecs as Record<string, { chars?: number }>)[m[1]!]?.chars : undefined;
  return chars !== undefined && compact.length === chars;
}

/**
 * What a lookup without `type` asks for, from the shape of `text` (CONTRACT "Lookup"): the
 * values to try, in order — one, or for a bare token a licence number and a handle — or why
 * it cannot be read. An IBAN needs valid check digits; a text that is plainly meant as an
 * IBAN or an address (an IBAN country's length, `0x`, `bc1`) but is not a valid one is
 * refused rather than looked up as something else.
 */
export function detect(text: string): { candidates: LookupValue[] } | { error: NotAValue } {
  const s = text.trim();
  const one = (kind: LookupKind) => {
    const n = normalizeAs(kind, s);
    return "error" in n ? n : { candidates: [{ kind, value: n.value }] };
  };
  if (s.startsWith("@")) return one("social_handle");
  if (normalizeIban(s)) return one("iban");
  if (meantAsIban(s)) return fail("invalid_iban", "'q' looks like an IBAN, but its check digits are wrong: check it for a typo.");
  if (normalizeWallet(s)) return one("wallet");
  if (/^(0x|bc1)/i.test(s) && !/\s/.test(s)) {
    return fail("invalid_address", "'q' looks like a wallet address, but it is not a valid one (length, characters or checksum).");
  }
  if (/[./]/.test(s)) {
    const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(s);
    const a = readWebAddress(s);
    if (a) {
      const handle = profileHandle(a);
      if (handle) return { candidates: [{ kind: "social_handle", value: handle }] };
      if (a.path !== "" || a.search !== "") return { candidates: [{ kind: "listing_url", value: listingOf(a) }] };
      return { candidates: [{ kind: "website", value: websiteOf(a) }] };
    }
    if (hasScheme) return fail("invalid_format", "'q' is not a web address we can read: http(s) only, a host under a public suffix, no credentials.");
  }
  const candidates: LookupValue[] = [];
  const licence = normalizeLicence(s);
  if (licence) candidates.push({ kind: "licence_number", value: licence });
  const handle = bareHandle(s);
  if (handle) candidates.push({ kind: "social_handle", value: handle });
  if (candidates.length > 0) return { candidates };
  return fail(
    "invalid_format",
    "Could not tell what 'q' is: send an IBAN, a wallet address, a website or listing link, a licence number or a handle, or name it with 'type'.",
  );
}

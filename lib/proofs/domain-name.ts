import net from "node:net";
import { domainToASCII } from "node:url";
import { parse } from "tldts";
import type { FieldError } from "@/lib/http/errors";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A registrable domain or a name under one: lower case, IDN → punycode, no scheme, path
 * or port, and a public suffix from the ICANN list under it (no `localhost`, bare TLDs,
 * `co.uk`, IP addresses or private suffixes).
 */
export function normalizeDomain(input: string, param = "domain"): { domain: string } | { error: FieldError } {
  const fail = (message: string) => ({ error: { code: "invalid_domain" as const, param, message } });
  const raw = input.trim();
  if (/[\s/\\@?#]|:\/\/|:/.test(raw)) return fail("Send a bare domain name such as example.com: no scheme, path, port or spaces.");
  if (net.isIP(raw) || net.isIP(raw.replace(/^\[|\]$/g, ""))) return fail("IP addresses are not domains.");
  const ascii = domainToASCII(raw.replace(/\.$/, "").toLowerCase());
  if (!ascii) return fail(`'${raw.slice(0, 100)}' is not a valid domain name.`);
  if (ascii.length > 253 || !ascii.split(".").every((l) => LABEL.test(l))) {
    return fail(`'${raw.slice(0, 100)}' is not a valid domain name.`);
  }
  const info = parse(ascii, { allowPrivateDomains: false });
  if (info.isIp) return fail("IP addresses are not domains.");
  if (!info.isIcann || !info.domain || !info.publicSuffix) {
    return fail(`'${ascii}' is not under a public suffix (such as .com or .co.uk); local names and bare suffixes cannot be proved.`);
  }
  return { domain: ascii };
}

export const txtNameFor = (domain: string) => `_prs-challenge.${domain}`;
export const txtValueFor = (token: string) => `prs-verification=${token}`;

/**
 * What a person pasted into "Domain" in the portal, as the domain to prove: a web address
 * ("https://www.example.com/path", "www.example.com/path") gives its host, which `pastedUrl`
 * then says was taken from it; anything else is returned as typed, for normalizeDomain to judge.
 */
export function domainFromPasted(input: string): { domain: string; pastedUrl?: string } {
  const raw = input.trim();
  if (!/[/\\?#@]|:\/\//.test(raw)) return { domain: raw };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return { domain: raw };
  }
  if (!/^https?:$/.test(url.protocol) || !url.hostname) return { domain: raw };
  return { domain: url.hostname.replace(/\.$/, ""), pastedUrl: raw };
}

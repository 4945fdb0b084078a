import { claimModuleFor } from "@/lib/claims/registry";
import { provedHost } from "@/lib/lookup/normalize";
import type { PublicView } from "@/lib/records/public-view";

/**
 * Which sites a record is about, for badge sightings and the certificate's "you came from
 * elsewhere" notice (docs/embed.md "What the service records"). A record covers a host when
 * the host is one of these domains or a subdomain of one:
 *
 * - the web addresses its claim type declares as lookup values (`view.lookupValues`): kind
 *   `website` (a domain proof's subject, a listing's or a DEX's domain) and kind `listing_url`
 *   (the listing page's host), `www.` taken off;
 * - the domains its account proves now (`account.verified_domains`: active live records of a
 *   type that proves an account domain) — whatever the record is about, a badge on the
 *   owner's own proved site is the owner's.
 *
 * Wider than the badge's green rule (exact hosts, verified records only: `covers_hosts`): a
 * sighting on `shop.example.com` of a record about `example.com` is the owner's own site and
 * no cause to alarm anyone. A subdomain cannot be used by someone who does not control the
 * domain, and a website value is always a name under an ICANN public suffix (never a bare
 * suffix), so this never covers a whole TLD.
 */
export function coveredDomains(view: Pick<PublicView, "row" | "account">): string[] {
  const { row } = view;
  const out = new Set<string>();
  for (const v of claimModuleFor(row.claimType).view?.lookupValues?.(row.subject, row.evidencePublic ?? {}) ?? []) {
    if (v.kind !== "website" && v.kind !== "listing_url") continue;
    const host = provedHost(v.value);
    if (host) out.add(withoutWww(host));
  }
  for (const d of view.account.verified_domains) {
    const host = provedHost(d);
    if (host) out.add(withoutWww(host));
  }
  return [...out].sort();
}

const withoutWww = (h: string) => (h.startsWith("www.") && h.indexOf(".", 4) > 0 ? h.slice(4) : h);

/** Whether `host` (lower case, as a browser sends it) is one of `domains` or under one. */
export function hostCovered(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h !== "" && domains.some((d) => h === d || h.endsWith(`.${d}`));
}

import type { PublicView } from "@/lib/public/record/public-view";

/**
 * Which hosts a record covers, for badge sightings and the certificate's "you came from
 * elsewhere" notice (docs/embed.md "What the service records"): the one coverage rule the
 * badge uses too (lib/trust/decide.ts `recordHosts`, issue 38 item 13) — exact hosts, a proof
 * of `x` covering `x` and `www.x`, never another subdomain. A badge shown on `shop.example.com`
 * of a record about `example.com` warns there ("a site this record does not cover"), so its
 * owner hears of it: one rule, one answer. Unlike the badge's `covers_hosts` it does not
 * depend on the record standing: a stated record's badge on its own site is not "elsewhere".
 */
export const coveredHosts = (view: Pick<PublicView, "aboutHosts">): string[] => view.aboutHosts;

/** Whether `host` (as a browser sends it: lower case, A-labels) is exactly one of `hosts`. */
export function hostCovered(host: string, hosts: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h !== "" && hosts.includes(h);
}

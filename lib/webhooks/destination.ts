import { promises as dns, type LookupAddress } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { getEnv } from "@/lib/env";
import type { FieldError } from "@/lib/http/errors";

const insecure = () => getEnv().WEBHOOK_ALLOW_INSECURE === "1";

/** IPv4-compatible IPv6 (RFC 4291 §2.5.5.1, deprecated): ipaddr.js has no range name for it. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * An address as ipaddr.js sees it, IPv4-mapped IPv6 (::ffff:a.b.c.d) turned into the IPv4
 * it carries. IPv6 text goes through the WHATWG URL parser first: ipaddr.js reads the
 * dotted form `::a.b.c.d` as IPv4-mapped, which it is not (it is IPv4-compatible, `::/96`).
 */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!net.isIP(ip)) return null;
  try {
    const addr = ipaddr.parse(net.isIPv6(ip) ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip);
    return addr instanceof ipaddr.IPv6 && addr.isIPv4MappedAddress() ? addr.toIPv4Address() : addr;
  } catch {
    return null; // e.g. a zone index (fe80::1%eth0): link-local anyway
  }
}

/**
 * Only ordinary public unicast addresses (ipaddr.js `range()` is "unicast"): no loopback,
 * private, link-local (cloud metadata lives at 169.254.169.254), CGNAT, unique-local,
 * multicast or reserved ranges, and no IPv4 carried in IPv6 — IPv4-mapped addresses are
 * judged by the IPv4 they carry; IPv4-compatible (::/96), NAT64 (64:ff9b::/96,
 * 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32) are refused whatever they carry.
 */
export function isPublicAddress(ip: string): boolean {
  const addr = parseAddress(ip);
  if (!addr || (addr instanceof ipaddr.IPv6 && addr.match(IPV4_COMPATIBLE))) return false;
  return addr.range() === "unicast";
}

/** Where deliveries may go: public addresses, and loopback too with WEBHOOK_ALLOW_INSECURE=1 (nothing else). */
export function isAllowedDestination(ip: string): boolean {
  if (isPublicAddress(ip)) return true;
  return insecure() && parseAddress(ip)?.range() === "loopback";
}

const bad = (message: string): FieldError => ({ code: "invalid_webhook_url", param: "url", message });

/**
 * Every address `hostname` resolves to: through the system's resolver (getaddrinfo), or, with
 * WEBHOOK_DNS_SERVERS, through those servers (A and AAAA; a name with neither fails as not found).
 */
async function resolveAll(hostname: string): Promise<LookupAddress[]> {
  const env = getEnv();
  if (!env.WEBHOOK_DNS_SERVERS) return dns.lookup(hostname, { all: true, verbatim: true });
  const resolver = new dns.Resolver({ timeout: env.DNS_TIMEOUT_MS, tries: 2 });
  resolver.setServers(env.WEBHOOK_DNS_SERVERS.split(",").map((s) => s.trim()).filter(Boolean));
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const list = [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (list.length > 0) return list;
  const failed = [v4, v6].find((r): r is PromiseRejectedResult => r.status === "rejected");
  throw failed?.reason ?? Object.assign(new Error(`${hostname} has no address`), { code: dns.NOTFOUND });
}

/**
 * Registration-time check of a destination: scheme, shape, and where its name resolves now.
 * Errors never say what the name resolved to: that would let a caller read internal DNS.
 */
export async function checkWebhookUrl(raw: string): Promise<{ url: string } | { error: FieldError }> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { error: bad("'url' is not a valid URL.") };
  }
  if (u.protocol !== "https:" && !(insecure() && u.protocol === "http:")) return { error: bad("Webhook destinations must use https://.") };
  if (u.username || u.password) return { error: bad("Put no credentials in the URL; verify our signature instead.") };
  if (u.hash) return { error: bad("A webhook URL has no #fragment.") };
  const host = u.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
  } catch {
    return { error: bad(`The host ${host} does not resolve.`) };
  }
  if (!addresses.every(isAllowedDestination)) return { error: bad(`The host ${host} does not resolve to public addresses only.`) };
  return { url: u.toString() };
}

/**
 * `lookup` for outgoing delivery sockets: the name is resolved again at connect time and
 * refused if any address is not allowed, so DNS changes after registration (rebinding)
 * cannot point deliveries at internal services. The error (kept in the delivery log the
 * customer reads) does not name the address.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean },
  cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  resolveAll(hostname).then(
    (list) => {
      if (!list.every((a) => isAllowedDestination(a.address))) {
        const e = new Error(`refused: ${hostname} does not resolve to public addresses only`) as NodeJS.ErrnoException;
        e.code = "EBLOCKED";
        return cb(e, []);
      }
      if (options.all) return cb(null, list);
      cb(null, list[0]!.address, list[0]!.family);
    },
    (e: NodeJS.ErrnoException) => cb(e, []),
  );
}

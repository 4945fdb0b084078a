import { promises as dns, type LookupAddress } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { getEnv } from "@/lib/env";
import type { FieldError } from "@/lib/http/errors";

const insecure = () => getEnv().WEBHOOK_ALLOW_INSECURE === "1";

/**
 * Only ordinary public unicast addresses: no loopback, private, link-local (cloud metadata
 * lives at 169.254.169.254), CGNAT, unique-local, multicast or reserved ranges, including
 * IPv4 hidden inside IPv6 (::ffff:127.0.0.1).
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === "unicast";
}

const bad = (message: string): FieldError => ({ code: "invalid_webhook_url", param: "url", message });

/** Registration-time check of a destination: scheme, shape, and where its name resolves now. */
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
  if (insecure()) return { url: u.toString() };
  const host = u.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return { error: bad(`The host ${host} does not resolve.`) };
  }
  const blocked = addresses.find((a) => !isPublicAddress(a));
  if (blocked) return { error: bad(`The host ${host} resolves to ${blocked}, which is not a public address.`) };
  return { url: u.toString() };
}

/**
 * `lookup` for outgoing delivery sockets: the name is resolved again at connect time and
 * refused if any address is not public, so DNS changes after registration (rebinding)
 * cannot point deliveries at internal services.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean },
  cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  dns.lookup(hostname, { all: true, verbatim: true }).then(
    (list) => {
      const blocked = !insecure() && list.find((a) => !isPublicAddress(a.address));
      if (blocked) {
        const e = new Error(`refused: ${hostname} resolves to non-public ${blocked.address}`) as NodeJS.ErrnoException;
        e.code = "EBLOCKED";
        return cb(e, []);
      }
      if (options.all) return cb(null, list);
      cb(null, list[0]!.address, list[0]!.family);
    },
    (e: NodeJS.ErrnoException) => cb(e, []),
  );
}

import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dnsQueryCount, setDnsEntry } from "../dns-server";
import { dataLayerTest } from "./setup";

// In-process: the SSRF guard with the insecure switch off (the default). Destinations are
// resolved by the tests' loopback DNS server (tests/dns-server.ts), which can answer a name
// differently each time it is asked: a real rebinding. `localhost` is given there as
// /etc/hosts gives it.
const zone = inject("dnsZoneFile");
await dataLayerTest({ env: { WEBHOOK_ALLOW_INSECURE: undefined, WEBHOOK_DNS_SERVERS: inject("serverEnv").DNS_SERVERS!, WEBHOOK_TIMEOUT_MS: "2000" } });
setDnsEntry(zone, "localhost", { a: [["127.0.0.1"]], aaaa: [["::1"]] });
afterAll(() => setDnsEntry(zone, "localhost", null));
const { getEnv } = await import("@/lib/env");
const { checkWebhookUrl, guardedLookup, isPublicAddress } = await import("@/lib/webhooks/destination");
const { sendWebhook } = await import("@/lib/webhooks/send-webhook");

/** A public address (example.com's), answered first; nothing here needs it to be reachable. */
const PUBLIC = "93.184.215.14";
/** Signs the deliveries sent here (kid and private key are all a send uses). */
const key = { kid: "ssrf-test", privateObject: generateKeyPairSync("ed25519").privateKey } as never;
const secret = `whsec_${randomBytes(24).toString("base64")}`;

/** A plain TCP server on loopback: where a delivery to the rebound address would land. */
async function loopbackReceiver() {
  const accepted: string[] = [];
  const server = net.createServer((socket) => {
    accepted.push(String(socket.remoteAddress));
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, accepted, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const rebindingName = (answers: string[][]) => {
  const host = `rebind-${randomUUID().slice(0, 8)}.example.test`;
  setDnsEntry(zone, host, { a: answers });
  return host;
};

describe("SSRF guard", () => {
  it("classifies addresses", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1"]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:1.1.1.1"]) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it("refuses IPv4 carried inside IPv6: IPv4-compatible (::/96), IPv4-mapped, NAT64, 6to4, Teredo", () => {
    for (const ip of [
      "::127.0.0.1", "::7f00:1", "::10.0.0.1", "::a00:1", "::169.254.169.254", "::1.1.1.1", "::101:101", // ::/96, whatever it embeds
      "::ffff:10.0.0.1", "::ffff:a9fe:a9fe", "::ffff:0:7f00:1", // IPv4-mapped, and the RFC 6145 translated form
      "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::101:101", "64:ff9b:1::a00:1", // NAT64
      "2002:7f00:1::1", "2002:a00:1::", "2002:c0a8:101::1", // 6to4
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it("refuses https://[::127.0.0.1]/ and does not echo what a name resolves to", async () => {
    for (const url of ["https://[::127.0.0.1]/", "https://[::7f00:1]/hook", "https://[::169.254.169.254]/latest/meta-data", "https://[64:ff9b::a9fe:a9fe]/x"]) {
      const r = await checkWebhookUrl(url);
      expect("error" in r && r.error.code, url).toBe("invalid_webhook_url");
    }
    const r = await checkWebhookUrl("https://localhost/hook");
    expect("error" in r && r.error.message).toBe("The host localhost does not resolve to public addresses only.");
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup("localhost", {}, (e) => resolve(e)));
    expect(err?.message).toBe("refused: localhost does not resolve to public addresses only"); // shown in the delivery log
  });

  it("refuses non-https, loopback, private, link-local and metadata destinations at registration", async () => {
    expect(getEnv().WEBHOOK_ALLOW_INSECURE).toBe("0");
    for (const url of [
      "http://93.184.215.14/hook", "https://127.0.0.1/hook", "https://localhost/hook", "https://[::1]/hook",
      "https://169.254.169.254/latest/meta-data", "https://10.0.0.5/x", "https://[::ffff:192.168.0.1]/x",
    ]) {
      const r = await checkWebhookUrl(url);
      expect("error" in r && r.error.code, url).toBe("invalid_webhook_url");
    }
    expect(await checkWebhookUrl("https://93.184.215.14/hook")).toEqual({ url: "https://93.184.215.14/hook" });
  });

  it("refuses at connect time when a name resolves to a private address (no rebinding)", async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup("localhost", {}, (e) => resolve(e)));
    expect(err?.code).toBe("EBLOCKED");

    // A name that answers a public address first and 127.0.0.1 from then on.
    const rx = await loopbackReceiver();
    try {
      const host = rebindingName([[PUBLIC], ["127.0.0.1"]]);
      const url = `https://${host}:${rx.port}/hook`;
      expect(await checkWebhookUrl(url)).toEqual({ url }); // registration saw the public address
      expect(dnsQueryCount(zone, host, "A")).toBe(1);
      const result = await sendWebhook(url, secret, key, "evt_rebinding", "{}");
      expect(dnsQueryCount(zone, host, "A")).toBe(2); // asked again to connect: the rebound answer …
      expect(result).toMatchObject({ statusCode: null, error: `refused: ${host} does not resolve to public addresses only` }); // … refused
      expect(rx.accepted).toEqual([]); // nothing reached loopback
    } finally {
      await rx.close();
    }
  });

  it("connects to the address it checked at connect time, never to one the name rebinds to after the check", async () => {
    const rx = await loopbackReceiver();
    try {
      // Public at registration, public at the connect-time check, 127.0.0.1 to anyone who asks a third time.
      const host = rebindingName([[PUBLIC], [PUBLIC], ["127.0.0.1"]]);
      const url = `https://${host}:${rx.port}/hook`;
      expect(await checkWebhookUrl(url)).toEqual({ url });
      const result = await sendWebhook(url, secret, key, "evt_rebinding_late", "{}");
      expect(rx.accepted).toEqual([]); // nothing reached loopback …
      // … and the name was asked twice in all — registration, then once at connect time for the check and the socket
      // together: the third answer, the only one that says 127.0.0.1, was never asked for, so the socket got the checked address.
      expect(dnsQueryCount(zone, host, "A")).toBe(2);
      expect(result.statusCode).toBeNull(); // (the public address does not serve this hook)
      // The name does rebind: whoever asks now is told 127.0.0.1.
      const now = await new Promise<string>((resolve, reject) => guardedLookup(host, {}, (e) => (e ? resolve(String(e.code)) : reject(new Error("not refused")))));
      expect(now).toBe("EBLOCKED");
    } finally {
      await rx.close();
    }
  });
});

import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

// In-process: the SSRF guard with the insecure switch off (the default).
await dataLayerTest({ env: { WEBHOOK_ALLOW_INSECURE: undefined } });
const { getEnv } = await import("@/lib/env");
const { checkWebhookUrl, guardedLookup, isPublicAddress } = await import("@/lib/webhooks/destination");

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
  });
});

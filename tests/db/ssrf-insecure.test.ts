import { describe, expect, it } from "vitest";

// In-process: the SSRF guard with WEBHOOK_ALLOW_INSECURE=1 (tests, local development). It
// lifts https:// and the loopback refusal, nothing else.
process.env.WEBHOOK_ALLOW_INSECURE = "1";
delete process.env.PUBLIC_BASE_URL;

const { getEnv } = await import("@/lib/env");
const { checkWebhookUrl, guardedLookup } = await import("@/lib/webhooks/destination");

const lookup = (host: string) =>
  new Promise<{ err: NodeJS.ErrnoException | null; addresses: unknown }>((resolve) =>
    guardedLookup(host, { all: true }, (err, addresses) => resolve({ err, addresses })),
  );

describe("SSRF guard with WEBHOOK_ALLOW_INSECURE=1", () => {
  it("allows http:// and loopback", async () => {
    expect(getEnv().WEBHOOK_ALLOW_INSECURE).toBe("1");
    for (const url of ["http://127.0.0.1:8080/hook", "http://localhost/hook", "http://[::1]/hook", "http://[::ffff:127.0.0.1]/hook", "http://93.184.215.14/hook"]) {
      expect(await checkWebhookUrl(url), url).toEqual({ url: new URL(url).toString() });
    }
    const r = await lookup("localhost");
    expect(r.err).toBeNull();
    expect(Array.isArray(r.addresses) && r.addresses.length > 0).toBe(true);
  });

  it("still refuses link-local (cloud metadata), private, CGNAT, unique-local and IPv4-compatible destinations", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data", "http://[fe80::1]/x", "http://10.0.0.5/x", "http://172.16.0.1/x", "http://192.168.1.1/x",
      "http://100.64.0.1/x", "http://[fd00::1]/x", "http://[::ffff:169.254.169.254]/x", "http://[::127.0.0.1]/x", "http://0.0.0.0/x",
    ]) {
      const r = await checkWebhookUrl(url);
      expect("error" in r && r.error.code, url).toBe("invalid_webhook_url");
    }
  });
});

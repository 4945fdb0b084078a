import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./security-headers";

const policy = (pathname: string) => contentSecurityPolicy({ nonce: "abc", pathname, https: false, dev: false });
const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `));

describe("contentSecurityPolicy", () => {
  it("nonces styles on every page but /docs", () => {
    for (const p of ["/", "/docs/guides/api", "/docs/api-reference.js", "/docsx", "/r/PRS-0123456789ABCDEFGHJK"]) {
      expect(directive(policy(p), "style-src"), p).toBe("style-src 'self' 'nonce-abc'");
    }
  });

  it("lets /docs (Scalar) use inline styles, with no nonce beside them, and keeps its scripts nonced", () => {
    for (const p of ["/docs", "/docs/"]) {
      expect(directive(policy(p), "style-src"), p).toBe("style-src 'self' 'unsafe-inline'");
      expect(directive(policy(p), "script-src"), p).toBe("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    }
  });
});

describe("uploaded documents", () => {
  it("are sandboxed, load nothing and are framable only by our own pages", () => {
    for (const p of ["/review/organisations/orv_x/files/file_y", "/organisation/files/file_y"]) {
      const csp = policy(p);
      expect(csp.split("; ")[0], p).toBe("sandbox");
      expect(directive(csp, "default-src"), p).toBe("default-src 'none'");
      expect(directive(csp, "frame-ancestors"), p).toBe("frame-ancestors 'self'");
    }
    expect(directive(policy("/review/organisations/orv_x"), "frame-ancestors")).toBe("frame-ancestors 'none'");
  });
});

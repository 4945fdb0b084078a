import { describe, expect, it } from "vitest";
import { newApiKeySecret } from "@/lib/ids";
import { displayParts, keyDisplay } from "./key-display";

describe("key display", () => {
  it("keeps the prefix and the last four characters, nothing else of the secret", () => {
    for (const env of ["sandbox", "live"] as const) {
      const secret = newApiKeySecret(env);
      const parts = displayParts(secret);
      expect(parts).toEqual({ keyPrefix: `prs_${env}_`, lastFour: secret.slice(-4) });
      expect(keyDisplay(parts)).toBe(`prs_${env}_…${secret.slice(-4)}`);
    }
  });
  it("shows ???? for a key made before the last four were kept", () => {
    expect(keyDisplay({ keyPrefix: "prs_live_", lastFour: null })).toBe("prs_live_…????");
  });
  it("refuses anything that is not an API key", () => {
    expect(() => displayParts("whsec_abc")).toThrow();
  });
});

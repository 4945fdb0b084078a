import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dataLayerTest, testClaimType } from "./setup";

/*
 * The account profile names at most MAX_VERIFIED_DOMAINS verified domains, the first in
 * name order, whatever the number an account proved (an account with a million domain
 * records must not make every answer about it load them all), and only live active ones.
 */
const { db, liveCustomer, sandboxCustomer, create } = await dataLayerTest();
const { registerClaimType } = await import("@/lib/claims/registry");
const { loadAccountProfiles, MAX_VERIFIED_DOMAINS } = await import("@/lib/accounts/account-profile");

const TYPE = "test_domain_proof";
registerClaimType(testClaimType(TYPE, {
  async check(input) {
    return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: input.evidence ?? {} };
  },
  capabilities: {
    proves: "account_domain",
  },
}));

type Auth = Awaited<ReturnType<typeof sandboxCustomer>>["auth"];
const prove = async (auth: Auth, subject: string) => {
  expect((await create(auth, { claim: "x", claim_type: TYPE, subject })).status).toBe(201);
};

describe("the account profile's verified domains", () => {
  it("are at most MAX_VERIFIED_DOMAINS, the first in name order, live only", async () => {
    const live = await liveCustomer();
    const t = randomBytes(3).toString("hex");
    const names = Array.from({ length: MAX_VERIFIED_DOMAINS + 5 }, (_, i) => `d${String(i).padStart(2, "0")}-${t}.example.com`);
    for (const n of [...names].reverse()) await prove(live.auth, n);
    const sandbox = await sandboxCustomer({ confirmed: true });
    await prove(sandbox.auth, `sandbox-${t}.example.com`);

    const profiles = await loadAccountProfiles(db, [live.accountId, sandbox.accountId]);
    expect(profiles.get(live.accountId)?.verified_domains).toEqual(names.slice(0, MAX_VERIFIED_DOMAINS));
    expect(profiles.get(sandbox.accountId)?.verified_domains).toEqual([]);
  });
});

import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

const { db, sandboxCustomer } = await dataLayerTest();
const { createDomainChallenge, createWalletChallenge } = await import("@/lib/challenges/challenges");
const { domainOwnership } = await import("@/lib/claims/domain-ownership");
const { walletOwnership } = await import("@/lib/claims/wallet-ownership");
const { NO_PROFILE } = await import("@/lib/accounts/account-profile");

const later = () => new Date(Date.now() + 2 * 3600_000);

describe("challenges expire after one hour", () => {
  it("domain: challenge_expired", async () => {
    const { auth } = await sandboxCustomer({ tag: "d" });
    const c = await createDomainChallenge(db, auth, { domain: "expiry.example.com" });
    const input = { subject: "expiry.example.com", claim_type: "domain_ownership", claim: "x", evidence: { challenge_id: c.id } };
    const out = await domainOwnership.check(input, { auth, db, now: later(), linked: new Map(), account: async () => NO_PROFILE });
    expect(out).toMatchObject({ kind: "fail", error: { code: "challenge_expired", param: "evidence.challenge_id" } });
  });

  it("wallet: challenge_expired even with a valid signature", async () => {
    const { auth } = await sandboxCustomer({ tag: "w" });
    const acct = privateKeyToAccount(generatePrivateKey());
    const c = await createWalletChallenge(db, auth, { address: acct.address, network: "ethereum" });
    const signature = await acct.signMessage({ message: c.message });
    const input = { subject: acct.address, claim_type: "wallet_ownership", claim: "x", evidence: { challenge_id: c.id, signature } };
    expect(await walletOwnership.check(input, { auth, db, now: new Date(), linked: new Map(), account: async () => NO_PROFILE })).toMatchObject({ kind: "issue" });
    expect(await walletOwnership.check(input, { auth, db, now: later(), linked: new Map(), account: async () => NO_PROFILE })).toMatchObject({ kind: "fail", error: { code: "challenge_expired" } });
  });
});

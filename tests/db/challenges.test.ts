import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-unit-"));
process.env.DATA_DIR = dir;

const { getDb, closeDb } = await import("@/lib/db/client");
const { createAccount } = await import("@/lib/accounts/create-account");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { createDomainChallenge, createWalletChallenge } = await import("@/lib/challenges/challenges");
const { domainOwnership } = await import("@/lib/claims/domain-ownership");
const { walletOwnership } = await import("@/lib/claims/wallet-ownership");

let db: Awaited<ReturnType<typeof getDb>>;
beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

const later = () => new Date(Date.now() + 2 * 3600_000);

describe("challenges expire after one hour", () => {
  it("domain: challenge_expired", async () => {
    const a = await createAccount(db, { email: `d-${randomBytes(4).toString("hex")}@example.test` });
    const auth = await authenticateApiKey(db, `Bearer ${a.sandboxKey}`);
    const c = await createDomainChallenge(db, auth, { domain: "expiry.example.com" });
    const input = { subject: "expiry.example.com", claim_type: "domain_ownership", claim: "x", evidence: { challenge_id: c.id } };
    const out = await domainOwnership.check(input, { auth, db, now: later(), linked: new Map() });
    expect(out).toMatchObject({ kind: "fail", error: { code: "challenge_expired", param: "evidence.challenge_id" } });
  });

  it("wallet: challenge_expired even with a valid signature", async () => {
    const a = await createAccount(db, { email: `w-${randomBytes(4).toString("hex")}@example.test` });
    const auth = await authenticateApiKey(db, `Bearer ${a.sandboxKey}`);
    const acct = privateKeyToAccount(generatePrivateKey());
    const c = await createWalletChallenge(db, auth, { address: acct.address, network: "ethereum" });
    const signature = await acct.signMessage({ message: c.message });
    const input = { subject: acct.address, claim_type: "wallet_ownership", claim: "x", evidence: { challenge_id: c.id, signature } };
    expect(await walletOwnership.check(input, { auth, db, now: new Date(), linked: new Map() })).toMatchObject({ kind: "issue" });
    expect(await walletOwnership.check(input, { auth, db, now: later(), linked: new Map() })).toMatchObject({ kind: "fail", error: { code: "challenge_expired" } });
  });
});

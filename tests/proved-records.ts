import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { call, setDns } from "./helpers";

/**
 * Records proved end to end through the API, for tests that build on them (listings,
 * dependants, look-alikes): the loopback DNS server answers the domain challenge, a fresh
 * viem wallet signs the wallet challenge.
 */

/** A domain_ownership record of the key's account, for `domain` (a fresh one by default). */
export async function domainRecord(key: string, domain = `proved-${randomUUID().slice(0, 8)}.example.com`) {
  const c = await call("POST", "/api/v1/domain-challenges", { key, body: { domain } });
  expect(c.status, c.text).toBe(201);
  setDns(c.body.txt_name, [c.body.txt_value]);
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.body.id } },
  });
  expect(r.status, r.text).toBe(201);
  return { domain, id: r.body.verification_id as string, txtName: c.body.txt_name as string, txtValue: c.body.txt_value as string };
}

/** A wallet_ownership record of the key's account, for a fresh Ethereum wallet. */
export async function walletRecord(key: string) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: acct.address, network: "ethereum" } })).body;
  const signature = await acct.signMessage({ message: c.message });
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: acct.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", visibility: "public", evidence: { challenge_id: c.id, signature } },
  });
  expect(r.status, r.text).toBe(201);
  return { address: acct.address, id: r.body.verification_id as string };
}

import { generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, inject, it } from "vitest";
import { admin, baseUrl, call, newAccount } from "../helpers";
import { randomLei, setLeiRecord } from "../lei-register";

/**
 * Issue 29: mandate key ids are unique per account, not first-come across the service. An
 * attacker who registers a victim's key id gets a key of its own — it verifies only the
 * attacker's own mandates, its revocation touches nothing of the victim's, and the public
 * read-back names each owner as it is: a reviewer-verified organisation, or a name the
 * account gave itself (even when that name copies the victim's legal name).
 */
type Key = { privateKey: KeyObject; x: string };
const keyPair = (): Key => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return { privateKey, x: (publicKey.export({ format: "jwk" }) as { x: string }).x };
};

const mandate = () => ({
  principal: "Victim Trading Ltd", agent_id: `agent-${randomUUID().slice(0, 6)}`, act: "pay_invoices",
  mandate_hash: `sha256:${randomBytes(32).toString("hex")}`,
});
const signFor = (accountId: string, m: ReturnType<typeof mandate>, k: Key) =>
  sign(null, Buffer.from(canonicalize({ account_id: accountId, agent_id: m.agent_id, act: m.act, mandate_hash: m.mandate_hash })!), k.privateKey).toString("base64url");

const agentRecord = (apiKey: string, m: ReturnType<typeof mandate>, keyId: string, signature: string) =>
  call("POST", "/api/v1/records", {
    key: apiKey,
    body: {
      subject: m.agent_id, claim_type: "agent_authorization", claim: "May pay approved invoices.", visibility: "public",
      ...m, mandate_signature: signature, principal_key_id: keyId,
    },
  });

const readBack = (accountId: string, keyId: string) => call("GET", `/keys/${accountId}/${encodeURIComponent(keyId)}`);
const agentOf = async (id: string) => (await call("GET", `/api/v1/records/${id}/status`)).body.agent;

describe("mandate key ids per account: squatting a key id", () => {
  it("a second account registers the victim's key id: its own key, never the victim's mandates, records or name", async () => {
    // The victim: a reviewer-verified organisation with a key and a record signed with it.
    const victim = await newAccount("mk-victim");
    const legalName = `Victim ${randomUUID().slice(0, 6)} Trading Ltd`;
    const lei = randomLei();
    // In the register stand-in: the sweep re-checks a verified organisation's LEI, and an unknown one lapses.
    setLeiRecord(inject("leiRegister").recordsFile, lei, { legalName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    await admin("organisation", "verify", "--account", victim.accountId, "--legal-name", legalName, "--lei", lei);
    const keyId = `treasury-${randomUUID().slice(0, 8)}`;
    const vk = keyPair();
    expect((await call("POST", "/api/v1/mandate-keys", { key: victim.sandboxKey, body: { key_id: keyId, public_key: vk.x } })).status).toBe(201);
    const vm = mandate();
    const vSig = signFor(victim.accountId, vm, vk);
    const vRec = await agentRecord(victim.sandboxKey, vm, keyId, vSig);
    expect(vRec.status, vRec.text).toBe(201);
    const vUrl = `${baseUrl()}/keys/${victim.accountId}/${keyId}`;
    // While one account holds the id, the specification's bare address answers it, owner named.
    const bareBefore = await call("GET", `/keys/${keyId}`);
    expect(bareBefore.status, bareBefore.text).toBe(200);
    expect(bareBefore.body).toMatchObject({ public_key: vk.x, account_id: victim.accountId, account: { name_verified: true } });
    expect(vRec.body).toMatchObject({ evidence_level: "source_verified", agent: { key: { key_id: keyId, status: "active", environment: "sandbox", url: vUrl } } });

    // The attacker calls itself by the victim's legal name and registers the same key id with its own key: allowed, in its own account.
    const attacker = await newAccount("mk-squatter");
    expect((await call("PATCH", "/api/v1/account", { key: attacker.sandboxKey, body: { name: legalName } })).status).toBe(200);
    const ak = keyPair();
    const squat = await call("POST", "/api/v1/mandate-keys", { key: attacker.sandboxKey, body: { key_id: keyId, public_key: ak.x } });
    expect(squat.status, squat.text).toBe(201);

    // The read-back names each owner as it is.
    const vPub = await readBack(victim.accountId, keyId);
    expect(vPub.body).toMatchObject({
      key_id: keyId, public_key: vk.x, status: "active", account_id: victim.accountId,
      account: { name: legalName, name_verified: true, organisation: { legal_name: legalName, lei, status: "verified" } },
    });
    const aPub = await readBack(attacker.accountId, keyId);
    expect(aPub.body).toMatchObject({
      key_id: keyId, public_key: ak.x, status: "active", account_id: attacker.accountId,
      account: { name: legalName, name_verified: false, organisation: null },
    });
    // Now two accounts hold the id: the bare address names no key, lists both accounts and points at each one's address.
    const bareAfter = await call("GET", `/keys/${keyId}`);
    expect(bareAfter.status, bareAfter.text).toBe(409);
    expect(bareAfter.body.error).toMatchObject({ type: "conflict", code: "mandate_key_ambiguous", param: "key_id" });
    expect(bareAfter.body.error.message).toContain(victim.accountId);
    expect(bareAfter.body.error.message).toContain(attacker.accountId);
    expect(bareAfter.body).not.toHaveProperty("public_key");
    // Each account reads its own key at the bare address with its API key.
    expect((await call("GET", `/keys/${keyId}`, { key: victim.sandboxKey })).body.public_key).toBe(vk.x);
    expect((await call("GET", `/keys/${keyId}`, { key: attacker.sandboxKey })).body.public_key).toBe(ak.x);

    // The victim's signature, replayed by the attacker under the same key id, does not verify in the attacker's account.
    const replay = await agentRecord(attacker.sandboxKey, vm, keyId, vSig);
    expect(replay.status, replay.text).toBe(422);
    expect(replay.body.error).toMatchObject({ code: "mandate_signature_invalid", param: "mandate_signature" });
    // The attacker's key does not sign for the victim: a mandate of the victim's account signed with it is refused there.
    const forged = mandate();
    const forgedRec = await agentRecord(victim.sandboxKey, forged, keyId, signFor(victim.accountId, forged, ak));
    expect(forgedRec.status, forgedRec.text).toBe(422);
    expect(forgedRec.body.error.code).toBe("mandate_signature_invalid");

    // The attacker's own mandate verifies with its own key, and speaks as the attacker (self-declared), pointing at its own key.
    const am = mandate();
    const aRec = await agentRecord(attacker.sandboxKey, am, keyId, signFor(attacker.accountId, am, ak));
    expect(aRec.status, aRec.text).toBe(201);
    expect(aRec.body).toMatchObject({
      account: { name: legalName, name_verified: false, organisation: null },
      agent: { key: { key_id: keyId, status: "active", url: `${baseUrl()}/keys/${attacker.accountId}/${keyId}` } },
    });

    // The attacker revokes its key: the victim's key and record are untouched (no stale or crossed cache either).
    expect((await agentOf(vRec.body.verification_id)).key).toMatchObject({ status: "active", url: vUrl });
    expect((await call("DELETE", `/api/v1/mandate-keys/${keyId}`, { key: attacker.sandboxKey })).body).toMatchObject({ status: "revoked" });
    expect((await agentOf(aRec.body.verification_id)).key).toMatchObject({ status: "revoked" });
    expect((await agentOf(vRec.body.verification_id)).key).toMatchObject({ status: "active", url: vUrl });
    expect((await readBack(victim.accountId, keyId)).body.status).toBe("active");
    // And the other way round: the victim's revocation reaches its own record, not the attacker's.
    await call("DELETE", `/api/v1/mandate-keys/${keyId}`, { key: victim.sandboxKey });
    expect((await agentOf(vRec.body.verification_id)).key).toMatchObject({ status: "revoked" });
    expect((await readBack(attacker.accountId, keyId)).body).toMatchObject({ public_key: ak.x, status: "revoked" });
    expect((await call("GET", "/api/v1/mandate-keys", { key: victim.sandboxKey })).body.data.map((k: { public_key: string }) => k.public_key)).toEqual([vk.x]);
  });
});

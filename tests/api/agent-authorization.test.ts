import fs from "node:fs";
import path from "node:path";
import { generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, inject, it } from "vitest";
import { admin, baseUrl, call, newAccount, newLiveAccount } from "../helpers";
import { LEI, randomLei, setLeiRecord } from "../lei-register";
import { withServerDb } from "../server-db";
import { verifyWithJwks } from "../signatures";

/**
 * agent_authorization through the HTTP API (CONTRACT "agent_authorization", "Mandates").
 * Mandates are signed here with node:crypto over canonicalize's RFC 8785 JSON — nothing of
 * the service's own signing code — and status answers are checked with jose + canonicalize.
 */
type Key = { keyId: string; privateKey: KeyObject; x: string };

function keyPair(): Key {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return { keyId: `agent-test-${randomUUID().slice(0, 8)}`, privateKey, x: (publicKey.export({ format: "jwk" }) as { x: string }).x };
}

async function registered(apiKey: string, k = keyPair()) {
  const r = await call("POST", "/api/v1/mandate-keys", { key: apiKey, body: { key_id: k.keyId, public_key: k.x } });
  expect(r.status, r.text).toBe(201);
  return k;
}

const accountIdOf = async (apiKey: string) => (await call("GET", "/api/v1/account", { key: apiKey })).body.id as string;

const mandate = (over: Record<string, unknown> = {}) => ({
  principal: "Proof Records Test Company Ltd", agent_id: `agent-${randomUUID().slice(0, 6)}`, act: "pay_invoices",
  scope: { asset: "USDC", max_amount: "250.00", network: "base" }, session_id: "sess-1",
  valid_until: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  mandate_hash: `sha256:${randomBytes(32).toString("hex")}`, ...over,
});

/** The principal's signature, exactly as CONTRACT "Mandates" says. */
function signMandate(accountId: string, m: Record<string, unknown>, k: Key) {
  const fields = ["agent_id", "act", "scope", "session_id", "valid_until", "mandate_hash"];
  const payload = Object.fromEntries([["account_id", accountId], ...fields.filter((f) => m[f] !== undefined).map((f) => [f, m[f]])]);
  return sign(null, Buffer.from(canonicalize(payload)!), k.privateKey).toString("base64url");
}

const agentBody = (m: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  subject: String(m.agent_id), claim_type: "agent_authorization", claim: `${String(m.agent_id)} may pay approved invoices.`, visibility: "public",
  ...m, ...over,
});

async function signedAgent(apiKey: string, k: Key, over: Record<string, unknown> = {}) {
  const m = mandate(over);
  const body = agentBody(m, { mandate_signature: signMandate(await accountIdOf(apiKey), m, k), principal_key_id: k.keyId });
  return { m, r: await call("POST", "/api/v1/records", { key: apiKey, body }) };
}

async function verifiedStatus(id: string) {
  const { status_signature, ...signed } = (await call("GET", `/api/v1/records/${id}/status`)).body;
  expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
  return signed;
}

async function liveCompany(liveKey: string, legalName = "Proof Records Test Company Ltd", lei: string = LEI.active) {
  const r = await call("POST", "/api/v1/records", {
    key: liveKey,
    body: { subject: legalName, claim_type: "company_identity", claim: "Holds an active LEI.", visibility: "public", evidence: { lei } },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.verification_id as string;
}

const { recordsFile } = inject("leiRegister");

/** A live account that is the verified organisation of a fresh LEI (in the register stand-in), with its company_identity record. */
async function principalOrganisation() {
  const legalName = `Principal ${randomUUID().slice(0, 8)} Holdings Ltd`;
  const lei = randomLei();
  setLeiRecord(recordsFile, lei, { legalName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
  const live = await newLiveAccount();
  await admin("organisation", "verify", "--account", live.accountId, "--legal-name", legalName, "--lei", lei);
  return { live, legalName, lei, company: await liveCompany(live.liveKey, legalName, lei) };
}

describe("agent_authorization", () => {
  it("without a signature: participant_attested, valid_until as expires_at, unlinked, no key", async () => {
    const { sandboxKey } = await newAccount("agent");
    const m = mandate();
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(m) });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ evidence_level: "participant_attested", status: "active" });
    expect(r.body.lifecycle.expires_at).toBe(new Date(String(m.valid_until)).toISOString());
    const st = await verifiedStatus(r.body.verification_id);
    expect(st.agent).toEqual({
      principal: m.principal, agent_id: m.agent_id, act: "pay_invoices", scope: m.scope, session_id: "sess-1", valid_until: m.valid_until,
      mandate_hash: m.mandate_hash, key: null, principal_standing: "unlinked", principal_record: null, wallets: [], payments: { count: 0, totals: [] },
    });
  });

  it("a mandate signed by an active mandate key of the account: source_verified; revoking the key shows at once, the agent stays active", async () => {
    const { sandboxKey, accountId } = await newAccount("agent");
    const k = await registered(sandboxKey);
    const { r } = await signedAgent(sandboxKey, k);
    expect(r.status, r.text).toBe(201);
    expect(r.body.evidence_level).toBe("source_verified");
    const id = r.body.verification_id as string;
    // The issuing account's key of that id, and where anyone reads it back with its owner named (issue 29).
    const url = `${baseUrl()}/keys/${accountId}/${k.keyId}`;
    expect((await verifiedStatus(id)).agent.key).toEqual({ key_id: k.keyId, status: "active", environment: "sandbox", url });

    const del = await call("DELETE", `/api/v1/mandate-keys/${k.keyId}`, { key: sandboxKey });
    expect(del.status, del.text).toBe(200);
    const after = await verifiedStatus(id);
    expect(after.agent.key).toEqual({ key_id: k.keyId, status: "revoked", environment: "sandbox", url });
    expect(after.status).toBe("active");
  });

  it("refuses a bad mandate with the contract's codes", async () => {
    const { sandboxKey } = await newAccount("agent");
    const other = await newAccount("agent-other");
    const k = await registered(sandboxKey);
    const k2 = await registered(sandboxKey);
    const foreign = await registered(other.sandboxKey);
    const revoked = await registered(sandboxKey);
    await call("DELETE", `/api/v1/mandate-keys/${revoked.keyId}`, { key: sandboxKey });
    const accountId = await accountIdOf(sandboxKey);
    const m = mandate();
    const good = signMandate(accountId, m, k);
    const send = (over: Record<string, unknown>, base: Record<string, unknown> = m) =>
      call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(base, { mandate_signature: good, principal_key_id: k.keyId, ...over }) });
    const cases: [string, ReturnType<typeof send>, string, string][] = [
      ["signed by another key of the account", send({ mandate_signature: signMandate(accountId, m, k2) }), "mandate_signature_invalid", "mandate_signature"],
      ["a tampered field", send({ act: "transfer_everything" }), "mandate_signature_invalid", "mandate_signature"],
      ["signed for another account", send({ mandate_signature: signMandate(other.accountId, m, k) }), "mandate_signature_invalid", "mandate_signature"],
      ["another account's key", send({ mandate_signature: signMandate(accountId, m, foreign), principal_key_id: foreign.keyId }), "mandate_key_invalid", "principal_key_id"],
      ["a revoked key", send({ mandate_signature: signMandate(accountId, m, revoked), principal_key_id: revoked.keyId }), "mandate_key_invalid", "principal_key_id"],
      ["an unknown key", send({ principal_key_id: "nobody-has-this-key" }), "mandate_key_invalid", "principal_key_id"],
      ["a missing field of the signed three", send({ mandate_hash: undefined }, { ...m, mandate_hash: undefined }), "mandate_signature_required", "mandate_hash"],
    ];
    for (const [what, pending, code, param] of cases) {
      const r = await pending;
      expect(r.status, `${what}: ${r.text}`).toBe(422);
      expect(r.body.error, what).toMatchObject({ code, param });
    }
    const unsigned = await call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(mandate(), { evidence_level: "source_verified" }) });
    expect(unsigned.body.error).toMatchObject({ code: "mandate_signature_required" });
    const reviewed = await call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(mandate(), { evidence_level: "evidence_verified" }) });
    expect(reviewed.body.error).toMatchObject({ code: "evidence_level_not_allowed" });
    const source = await call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(mandate(), { source_name: "Our board", source_url: "https://acme.example/board" }) });
    expect(source.body.error).toMatchObject({ code: "field_not_allowed", param: "source_name" });
  });

  it("validates the fields and refuses them on other claim types", async () => {
    const { sandboxKey } = await newAccount("agent");
    const bad: [Record<string, unknown>, string, string][] = [
      [{ mandate_hash: "md5:abc" }, "invalid_format", "mandate_hash"],
      [{ mandate_hash: `sha256:${"A".repeat(64)}` }, "invalid_format", "mandate_hash"],
      [{ scope: { max_amount: "1e5" } }, "invalid_format", "scope.max_amount"],
      [{ scope: { max_amount: 250 } }, "invalid_type", "scope.max_amount"],
      [{ valid_until: new Date(Date.now() - 60_000).toISOString() }, "invalid_value", "valid_until"],
      [{ agent_id: undefined }, "missing_field", "agent_id"],
      [{ expires_at: new Date(Date.now() + 86_400_000).toISOString() }, "field_not_allowed", "expires_at"],
    ];
    for (const [over, code, param] of bad) {
      const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(mandate(), over) });
      expect(r.status, `${JSON.stringify(over)}: ${r.text}`).toBe(422);
      expect(r.body.error, JSON.stringify(over)).toMatchObject({ code, param });
    }
    const elsewhere = await call("POST", "/api/v1/records", {
      key: sandboxKey, body: { subject: "Acme", claim_type: "company_status", claim: "Acme is active.", agent_id: "a-1" },
    });
    expect(elsewhere.body.error).toMatchObject({ code: "unknown_field", param: "agent_id" });
  });

  it("refuses secret material and keeps it nowhere: not in the database, not in the log", async () => {
    const { sandboxKey } = await newAccount("agent");
    const seed = "abandon ability able about above absent absorb abstract absurd abuse access accident";
    const pk = `0x${randomBytes(32).toString("hex")}`;
    const marker = `PRSAGENT${randomBytes(10).toString("hex")}`;
    const attempts: [Record<string, unknown>, string][] = [
      [{ private_key: marker }, "private_key"],
      [{ scope: { asset: "USDC", seed_phrase: marker } }, "scope.seed_phrase"],
      [{ session_id: seed }, "session_id"],
      [{ act: pk }, "act"],
      [{ mnemonic: `${marker} ${seed}` }, "mnemonic"],
    ];
    for (const [over, param] of attempts) {
      const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: agentBody(mandate(), over) });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ code: "secret_material_refused", param });
      for (const s of [marker, seed, pk]) expect(r.text).not.toContain(s);
    }
    const dump = await withServerDb(async (sql) => {
      const tables = await sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
      const rows = await Promise.all(tables.map(({ name }) => sql.unsafe(`select row_to_json(t)::text as j from "${name}" t`)));
      return rows.flat().map((r) => String(r.j)).join("\n");
    });
    const log = fs.readFileSync(path.join(inject("dataDir"), "server.log"), "utf8");
    for (const s of [marker, seed, pk]) {
      expect(dump).not.toContain(s);
      expect(log).not.toContain(s);
    }
  });

  it("links a checked company record as its principal; the standing follows that record at once, and can be unlinked", async () => {
    const { live, legalName, company } = await principalOrganisation();
    const k = await registered(live.liveKey);
    const { r } = await signedAgent(live.liveKey, k, { principal: legalName, principal_record_id: company });
    expect(r.status, r.text).toBe(201);
    const id = r.body.verification_id as string;
    expect(r.body.links).toEqual([{ role: "principal_record", verification_id: company, status: "active", standing: "active" }]);
    expect(r.body.agent.principal_standing).toBe("verified");
    const st = await verifiedStatus(id);
    expect(st.agent).toMatchObject({ principal_standing: "verified", principal_record: { verification_id: company, subject: legalName } });

    const move = (op: string) => call("POST", `/api/v1/records/${company}/lifecycle`, { key: live.liveKey, body: { operation: op, reason: "Testing the standing." } });
    expect((await move("suspend")).status).toBe(200);
    let now = await verifiedStatus(id);
    expect(now.agent.principal_standing).toBe("lapsed");
    expect(now.status).toBe("active"); // the company's standing never moves the agent's own status
    expect((await move("reinstate")).status).toBe(200);
    expect((await verifiedStatus(id)).agent.principal_standing).toBe("verified");

    const unlink = await call("PATCH", `/api/v1/records/${id}/principal`, { key: live.liveKey, body: { principal_record_id: null } });
    expect(unlink.status, unlink.text).toBe(200);
    expect(unlink.body.links).toEqual([]);
    now = await verifiedStatus(id);
    expect(now.agent).toMatchObject({ principal_standing: "unlinked", principal_record: null });
    const relink = await call("PATCH", `/api/v1/records/${id}/principal`, { key: live.liveKey, body: { principal_record_id: company } });
    expect(relink.status, relink.text).toBe(200);
    expect((await move("revoke")).status).toBe(200);
    expect((await verifiedStatus(id)).agent.principal_standing).toBe("lapsed");
  });

  it("refuses a principal that is not a public, active, checked company record of the account, or a sandbox one for a live agent", async () => {
    const live = await newLiveAccount();
    const other = await newLiveAccount();
    const theirs = await liveCompany(other.liveKey);
    const attested = (await call("POST", "/api/v1/records", {
      key: live.liveKey, body: { subject: "Acme", claim_type: "company_status", claim: "Acme is active.", visibility: "public" },
    })).body.verification_id;
    const sandboxCompany = (await call("POST", "/api/v1/records", {
      key: live.sandboxKey, body: { subject: "Proof Records Test Company Ltd", claim_type: "company_identity", claim: "LEI.", evidence: { lei: LEI.active } },
    })).body.verification_id;
    for (const target of [theirs, attested, sandboxCompany, "PRS-00000000000000000000"]) {
      const r = await call("POST", "/api/v1/records", { key: live.liveKey, body: agentBody(mandate(), { principal_record_id: target }) });
      expect(r.status, `${target}: ${r.text}`).toBe(422);
      expect(r.body.error).toMatchObject({ code: "principal_record_invalid", param: "principal_record_id" });
    }
    const agent = (await call("POST", "/api/v1/records", { key: live.liveKey, body: agentBody(mandate()) })).body.verification_id;
    const r = await call("PATCH", `/api/v1/records/${agent}/principal`, { key: live.liveKey, body: { principal_record_id: theirs } });
    expect(r.body.error).toMatchObject({ code: "principal_record_invalid" });
    const notAgent = await call("PATCH", `/api/v1/records/${attested}/principal`, { key: live.liveKey, body: { principal_record_id: null } });
    expect(notAgent.body.error).toMatchObject({ code: "field_not_allowed" });
    expect((await call("PATCH", `/api/v1/records/${agent}/principal`, { key: other.liveKey, body: { principal_record_id: null } })).status).toBe(404);
  });

  it("principal_standing is verified only for the account's own verified organisation (same LEI) named as principal", async () => {
    const real = await principalOrganisation();
    // Another account links a company_identity record of the real organisation's LEI: checked, active, but not its own organisation.
    const other = await newLiveAccount();
    const borrowed = await liveCompany(other.liveKey, real.legalName, real.lei);
    const otherAgent = await call("POST", "/api/v1/records", { key: other.liveKey, body: agentBody(mandate({ principal: real.legalName }), { principal_record_id: borrowed }) });
    expect(otherAgent.status, otherAgent.text).toBe(201);
    expect(otherAgent.body.agent.principal_standing).toBe("unverified");
    expect((await verifiedStatus(otherAgent.body.verification_id)).agent).toMatchObject({ principal_standing: "unverified", principal_record: { verification_id: borrowed } });
    // Calling itself by the organisation's name changes nothing.
    expect((await call("PATCH", "/api/v1/account", { key: other.liveKey, body: { name: real.legalName } })).status).toBe(200);
    expect((await verifiedStatus(otherAgent.body.verification_id)).agent.principal_standing).toBe("unverified");

    // The real organisation: verified — but not when the agent names another principal.
    const own = await call("POST", "/api/v1/records", { key: real.live.liveKey, body: agentBody(mandate({ principal: real.legalName }), { principal_record_id: real.company }) });
    expect(own.status, own.text).toBe(201);
    const ownId = own.body.verification_id as string;
    expect((await verifiedStatus(ownId)).agent.principal_standing).toBe("verified");
    const renamed = await call("POST", "/api/v1/records", { key: real.live.liveKey, body: agentBody(mandate({ principal: "Someone Else Ltd" }), { principal_record_id: real.company }) });
    expect((await verifiedStatus(renamed.body.verification_id)).agent.principal_standing).toBe("unverified");

    // The standing depends on the account: removing the organisation shows at once in the (cached) signed status.
    expect((await admin("organisation", "remove", "--account", real.live.accountId)).organisation).toBeNull();
    expect((await verifiedStatus(ownId)).agent.principal_standing).toBe("unverified");
    await admin("organisation", "verify", "--account", real.live.accountId, "--legal-name", real.legalName, "--lei", real.lei);
    expect((await verifiedStatus(ownId)).agent.principal_standing).toBe("verified");
  });
});

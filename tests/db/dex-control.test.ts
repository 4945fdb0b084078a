import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { chainClients, deployOwnerWallet } from "../chain/contracts";
import { setDns } from "../helpers";
import { verifyWithKeySet } from "../signatures";
import { startVaultInfo, vaultFixture, writeVaultInfo } from "../vault-info";
import { dataLayerTest } from "./setup";

/*
 * dex_control from submission to issue (spec 2.6; issue 16), in-process against the loopback
 * DNS server and the info API stand-in: each subtype submits as 202 pending_review; approval
 * needs the subtype's checklist and evidence younger than 24 h (the check time is moved back
 * in the database: the clock the rule reads); it issues for exactly 90 days with the re-check
 * date equal to the expiry, with the snapshot of that moment — never the builder's named
 * wallet or its fee rates — and the signed status carries evidence.mode and
 * evidence.social_handle. An unreachable info API refuses approval unless the reviewer
 * approves without a snapshot.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-dex-"));
/**
 * The RPC of `base` (the suite's hardhat node) behind a switch: while `rpcUp` is false a
 * request's connection is dropped (an unreachable RPC), otherwise it is passed on.
 */
const evmChain = inject("evmChain");
let rpcUp = true;
const rpc = http.createServer(async (req, res) => {
  if (!rpcUp) return void req.socket.destroy();
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const answer = await fetch(evmChain.url, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
  res.writeHead(answer.status, { "content-type": "application/json" }).end(Buffer.from(await answer.arrayBuffer()));
});
await new Promise<void>((r) => rpc.listen(0, "127.0.0.1", r));
const infoFile = path.join(dir, "vault-info.json");
const info = await startVaultInfo(infoFile);
const { db, liveCustomer: newLiveCustomer, reviewer: newReviewer, create } = await dataLayerTest({
  dir,
  env: {
    EVM_RPC_URLS: JSON.stringify({ [evmChain.network]: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}` }),
    RPC_TIMEOUT_MS: "1000",
    DNS_SERVERS: inject("serverEnv").DNS_SERVERS!,
    DNS_TIMEOUT_MS: "250",
    VAULT_INFO_URL: info.url,
    VAULT_INFO_TIMEOUT_MS: "500",
  },
});
const { records } = await import("@/drizzle/schema");
const { createDomainChallenge, createWalletChallenge } = await import("@/lib/challenges/challenges");
const { decideSubmission, rerunAutomaticCheck } = await import("@/lib/reviews/decide-submission");
const { getSubmission } = await import("@/lib/reviews/review-queue");
const { getSignedStatus } = await import("@/lib/public/record/signed-status");
const { refreshEvidence } = await import("@/lib/records/refresh-evidence");
const { answerLookup } = await import("@/lib/public/lookup/answer-lookup");
const { lookupRequestFrom } = await import("@/lib/public/lookup/lookup-query");
const { publicJwks } = await import("@/lib/signing/keys");

const reviewer = await newReviewer();
beforeEach(() => writeVaultInfo(infoFile, {}));
afterAll(async () => {
  await info.close();
  await new Promise((r) => rpc.close(r));
});

const liveCustomer = async () => (await newLiveCustomer({ tag: "dex" })).auth;
type Auth = Awaited<ReturnType<typeof liveCustomer>>;

async function domainRecord(auth: Auth) {
  const c = await createDomainChallenge(db, auth, { domain: `dex-${randomUUID().slice(0, 8)}.example.com` });
  setDns(c.txt_name, [c.txt_value]);
  const r = await create(auth, { subject: c.domain, claim_type: "domain_ownership", claim: "Controls it.", evidence: { challenge_id: c.id } });
  expect(r.status).toBe(201);
  return { domain: c.domain, id: r.body.verification_id as string, txtName: c.txt_name, txtValue: c.txt_value };
}

async function signedChallenge(auth: Auth, claimType: "dex_control" | "wallet_ownership" = "dex_control") {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const c = await createWalletChallenge(db, auth, { address: wallet.address, network: "ethereum", claim_type: claimType });
  return { wallet: wallet.address, signer: wallet, challenge_id: c.id, signature: await wallet.signMessage({ message: c.message }), nonce: /Nonce: (\S+)/.exec(c.message)![1] };
}

const USER = "0x1111111111111111111111111111111111111111";
const VAULT = "0xdfc24b077bc1425ad1dea75bcb6f8158e10df303";

async function submit(auth: Auth, subtype: string, evidence: Record<string, unknown>, ch?: Awaited<ReturnType<typeof signedChallenge>>) {
  const c = ch ?? await signedChallenge(auth);
  const r = await create(auth, {
    subject: c.wallet, claim_type: "dex_control", subtype, claim: `Controls ${c.wallet}.`,
    evidence: { challenge_id: c.challenge_id, signature: c.signature, social_handle: "@acmetrade", ...evidence },
  });
  return { ...r, wallet: c.wallet, signer: c.signer, nonce: c.nonce };
}

const approve = (id: string, extra: Record<string, unknown> = {}) =>
  decideSubmission(db, reviewer, id, { decision: "approve", checklist: getChecklistKeys(id), ...extra });
let checklists = new Map<string, string[]>();
const getChecklistKeys = (id: string) => checklists.get(id)!;
async function loadChecklist(id: string) {
  const s = await getSubmission(db, id);
  checklists.set(id, s!.checklist.map((i) => i.key));
  return s!;
}

async function verifiedStatus(id: string) {
  const { body } = (await getSignedStatus(db, id))!;
  const { status_signature, ...signed } = JSON.parse(body);
  expect(await verifyWithKeySet(publicJwks(), signed, status_signature, signed.signing_key_id)).toBe(true);
  return signed;
}

describe("dex_control", () => {
  it("a builder: 202, its checklist, issued for 90 days with the approved maximum fee and never the named wallet", async () => {
    const auth = await liveCustomer();
    const d = await domainRecord(auth);
    const ch = await signedChallenge(auth);
    writeVaultInfo(infoFile, { builderFees: { [`${USER}|${ch.wallet.toLowerCase()}`]: 10 } });
    const r = await submit(auth, "builder", { domain: d.domain.toUpperCase(), domain_record: d.id, user_address: USER }, ch);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toMatchObject({ status: "pending_review", review: { evidence_level: "evidence_verified" } });
    expect(r.body.evidence).toMatchObject({ subtype: "builder", domain: d.domain, social_handle: "@acmetrade", signature_checked: true });
    expect(JSON.stringify(r.body).toLowerCase()).not.toContain(USER.slice(2));
    const id = r.body.verification_id as string;
    const s = await loadChecklist(id);
    expect(s.checklist.map((i) => i.key)).toEqual(["social_account", "builder_front_end"]);
    expect(s.approvalRefusal).toBeNull();

    const issued = await approve(id);
    expect(issued).toMatchObject({ status: "active", evidence_level: "evidence_verified" });
    expect(issued.evidence.snapshot).toEqual({ approved_max_fee: "0.01%", taken_at: expect.any(String) });
    const [row] = await db.select().from(records).where(eq(records.id, id));
    expect(row!.expiresAt!.getTime() - row!.issuedAt!.getTime()).toBe(90 * 86_400_000);
    expect(row!.recheckAt!.getTime()).toBe(row!.expiresAt!.getTime());
    const st = await verifiedStatus(id);
    expect(st.evidence).toEqual({ mode: null, social_handle: "@acmetrade" });
    expect(st.websites).toEqual([d.domain]); // the embed badge is green only on the builder's site
    const found = JSON.parse(await answerLookup(db, lookupRequestFrom(new URL(`https://x.test/api/v1/lookup?q=${ch.wallet.toLowerCase()}`))));
    expect(found.matches).toEqual(expect.arrayContaining([expect.objectContaining({ verification_id: id, matched_field: "subject" })]));
    expect(JSON.stringify(st).toLowerCase()).not.toContain(USER.slice(2));
    expect(JSON.stringify(row!.evidencePublic).toLowerCase()).not.toContain(USER.slice(2));
  });

  it("a vault leader: the vault's public snapshot when it leads it, 'No snapshot' when it does not", async () => {
    const auth = await liveCustomer();
    const d = await domainRecord(auth);
    const ch = await signedChallenge(auth);
    writeVaultInfo(infoFile, { vaults: { [VAULT]: vaultFixture({ vaultAddress: VAULT, leader: ch.wallet, name: "Acme Alpha", followers: [USER] }) } });
    const r = await submit(auth, "vault_leader", { domain: d.domain, domain_record: d.id, vault_address: VAULT }, ch);
    expect(r.status).toBe(202);
    await loadChecklist(r.body.verification_id);
    const issued = await approve(r.body.verification_id);
    expect(issued.evidence.snapshot).toMatchObject({ vault_name: "Acme Alpha", leader: ch.wallet.toLowerCase(), followers: 1, deposits_open: true });

    const other = await submit(auth, "vault_leader", { domain: d.domain, domain_record: d.id, vault_address: VAULT });
    await loadChecklist(other.body.verification_id);
    const none = await approve(other.body.verification_id);
    expect(none.evidence).toMatchObject({ snapshot: null, snapshot_note: "No snapshot: the vault's leader is not the proved wallet." });
  });

  it("a domainless wallet owner: the post's checklist and token; evidence 24 h old cannot be approved", async () => {
    const auth = await liveCustomer();
    const r = await submit(auth, "wallet_owner", { mode: "domainless", social_post_url: "https://social.example/acmetrade/status/1" });
    expect(r.status).toBe(202);
    expect(r.body.evidence).toMatchObject({ mode: "domainless", token: r.nonce });
    const id = r.body.verification_id as string;
    await db.update(records).set({ evidencePublic: sql`jsonb_set(evidence_public, '{checked_at}', to_jsonb(${new Date(Date.now() - 24 * 3600_000 - 1000).toISOString()}::text))` }).where(eq(records.id, id));
    const s = await loadChecklist(id);
    expect(s.checklist.map((i) => i.key)).toEqual(["post_author", "post_token"]);
    expect(s.approvalRefusal).toMatch(/must be younger than 24 h/);
    await expect(approve(id)).rejects.toMatchObject({ code: "review_precondition_failed" });
    expect((await db.select({ status: records.status }).from(records).where(eq(records.id, id)))[0]!.status).toBe("pending_review");

    // The customer re-signs a new challenge for the same wallet: fresh evidence, no new submission.
    const wrongWallet = await signedChallenge(auth);
    await expect(refreshEvidence(db, auth, id, { evidence: { challenge_id: wrongWallet.challenge_id, signature: wrongWallet.signature } }))
      .rejects.toMatchObject({ code: "subject_mismatch", param: "evidence.challenge_id" });
    const c = await createWalletChallenge(db, auth, { address: r.wallet, network: "ethereum", claim_type: "dex_control" });
    const fresh = await refreshEvidence(db, auth, id, { evidence: { challenge_id: c.id, signature: await r.signer.signMessage({ message: c.message }) } });
    expect(fresh).toMatchObject({ status: "pending_review", evidence: { challenge_id: c.id, mode: "domainless" } });
    expect(Date.now() - Date.parse(String(fresh.evidence.checked_at))).toBeLessThan(60_000);
    expect((await loadChecklist(id)).approvalRefusal).toBeNull();
    const issued = await approve(id);
    expect(issued.status).toBe("active");
    expect((await verifiedStatus(id)).evidence).toEqual({ mode: "domainless", social_handle: "@acmetrade" });
    // Issued: nothing left to refresh.
    const late = await createWalletChallenge(db, auth, { address: r.wallet, network: "ethereum", claim_type: "dex_control" });
    await expect(refreshEvidence(db, auth, id, { evidence: { challenge_id: late.id, signature: await r.signer.signMessage({ message: late.message }) } }))
      .rejects.toMatchObject({ code: "invalid_transition" });
  });

  it("an unreachable info API refuses approval unless the reviewer approves without a snapshot", async () => {
    const auth = await liveCustomer();
    const r = await submit(auth, "wallet_owner", { mode: "domainless", social_post_url: "https://social.example/acmetrade/status/2", vault_address: VAULT });
    const id = r.body.verification_id as string;
    await loadChecklist(id);
    writeVaultInfo(infoFile, { failStatus: 503 });
    await expect(approve(id)).rejects.toMatchObject({ code: "snapshot_unreachable" });
    const issued = await approve(id, { without_snapshot: true });
    expect(issued.evidence).toMatchObject({ snapshot: null, snapshot_note: expect.stringContaining("could not be reached") });
  });

  it("a renewal is a new submission with fresh evidence that supersedes the old record on approval", async () => {
    const auth = await liveCustomer();
    const post = { mode: "domainless", social_post_url: "https://social.example/acmetrade/status/3" };
    const first = await submit(auth, "wallet_owner", post);
    await loadChecklist(first.body.verification_id);
    await approve(first.body.verification_id);
    const again = async () => {
      const c = await createWalletChallenge(db, auth, { address: first.wallet, network: "ethereum", claim_type: "dex_control" });
      return { wallet: first.wallet, signer: first.signer, challenge_id: c.id, signature: await first.signer.signMessage({ message: c.message }), nonce: "" };
    };
    const other = await submit(auth, "wallet_owner", post);
    await expect(submit(auth, "wallet_owner", { ...post, renews: other.body.verification_id }, await again()))
      .rejects.toMatchObject({ code: "linked_record_invalid", param: "evidence.renews" });
    const renewal = await submit(auth, "wallet_owner", { ...post, renews: first.body.verification_id }, await again());
    expect(renewal.status).toBe(202);
    // Until the renewal is approved, the old record stands.
    expect((await db.select({ status: records.status }).from(records).where(eq(records.id, first.body.verification_id)))[0]!.status).toBe("active");
    await loadChecklist(renewal.body.verification_id);
    await approve(renewal.body.verification_id);
    const [old] = await db.select().from(records).where(eq(records.id, first.body.verification_id));
    expect(old).toMatchObject({ status: "superseded", supersededBy: renewal.body.verification_id });
  });

  it("refuses what spec 2.6 does not allow, naming the field", async () => {
    const auth = await liveCustomer();
    const refused = async (p: Promise<{ status: number; body: { error?: unknown } }>) => {
      try {
        return (await p).body.error;
      } catch (e) {
        return { code: (e as { code: string }).code, param: (e as { param?: string }).param };
      }
    };
    expect(await refused(submit(auth, "builder", { mode: "domainless", social_post_url: "https://social.example/p/1", user_address: USER })))
      .toMatchObject({ code: "field_not_allowed", param: "evidence.mode" });
    const ch = await signedChallenge(auth, "wallet_ownership");
    expect(await refused(submit(auth, "wallet_owner", { mode: "domainless", social_post_url: "https://social.example/p/1" }, ch)))
      .toMatchObject({ code: "challenge_not_found", param: "evidence.challenge_id" });
    const other = await liveCustomer();
    const foreign = await domainRecord(other);
    expect(await refused(submit(auth, "wallet_owner", { domain: foreign.domain, domain_record: foreign.id })))
      .toMatchObject({ code: "linked_record_invalid", param: "evidence.domain_record" });
    expect(await refused(create(auth, { subject: USER, claim_type: "dex_control", claim: "x", evidence: {} }))).toMatchObject({ param: "subtype" });
  });

  it("approval needs a wallet signature checked by the service: unchecked (RPC unreachable) → refused with the reason and a re-run offered; the re-run checks it (EIP-1271) and approval follows", async () => {
    const auth = await liveCustomer();
    const chain = chainClients(evmChain.url, evmChain.chainId);
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployOwnerWallet(chain, owner.address);
    rpcUp = false;
    try {
      const c = await createWalletChallenge(db, auth, { address: wallet, network: evmChain.network as "base", claim_type: "dex_control" });
      const signature = await owner.signMessage({ message: c.message });
      const r = await create(auth, {
        subject: wallet, claim_type: "dex_control", subtype: "wallet_owner", claim: `Controls ${wallet}.`,
        evidence: { challenge_id: c.id, signature, social_handle: "@acmetrade", mode: "domainless", social_post_url: "https://social.example/acmetrade/status/11" },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body.evidence).toMatchObject({ signature_checked: false });
      expect(r.body.review.reason).toMatch(/could not be checked yet/);
      const id = r.body.verification_id as string;

      // The console: approval disabled with the reason, "Re-run automatic check" offered.
      const s = await loadChecklist(id);
      expect(s.approvalRefusal).toMatch(/wallet signature has not been checked by the service/);
      expect(s.canRerun).toBe(true);
      expect(s.rerunChecksOnly).toBe(true);
      await expect(approve(id)).rejects.toMatchObject({ code: "review_precondition_failed", message: expect.stringMatching(/Re-run the automatic check/) });

      // Still unreachable: nothing changes.
      const still = await rerunAutomaticCheck(db, reviewer, id);
      expect(still).toMatchObject({ outcome: "unreachable" });
      expect((await loadChecklist(id)).approvalRefusal).toMatch(/has not been checked/);

      // The network answers: the signature is checked on-chain; the submission still waits for its reviewer.
      rpcUp = true;
      const checked = await rerunAutomaticCheck(db, reviewer, id);
      expect(checked).toMatchObject({ outcome: "checked", reason: expect.stringMatching(/signature checked out/) });
      const [row] = await db.select().from(records).where(eq(records.id, id));
      expect(row).toMatchObject({ status: "pending_review", evidencePublic: expect.objectContaining({ signature_checked: true }) });
      const after = await loadChecklist(id);
      expect(after.approvalRefusal).toBeNull();
      expect(after.canRerun).toBe(false);
      expect(after.decisions.map((d) => d.decision)).toEqual(["rerun_unchanged", "rerun_checked"]);
      expect(after.approvalChecks).toEqual([expect.stringMatching(/wallet signature was checked by the service/)]);
      const issued = await approve(id);
      expect(issued).toMatchObject({ status: "active", evidence_level: "evidence_verified", evidence: { signature_checked: true } });
    } finally {
      rpcUp = true;
    }
  });

  it("the domain record is re-checked at approval: its TXT record gone → approval refused with the reason (shown in the console); published again → approved", async () => {
    const auth = await liveCustomer();
    const d = await domainRecord(auth);
    const r = await submit(auth, "wallet_owner", { domain: d.domain, domain_record: d.id });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const id = r.body.verification_id as string;
    const s = await loadChecklist(id);
    expect(s.approvalRefusal).toBeNull();
    expect(s.approvalChecks).toEqual([
      expect.stringMatching(/wallet signature was checked by the service/),
      expect.stringContaining(`The domain record ${d.id} is active and its DNS TXT record for ${d.domain} is still published`),
    ]);

    // The TXT record is taken down: the console says so, and approval is refused; nothing changes.
    setDns(d.txtName, null);
    const gone = await loadChecklist(id);
    expect(gone.approvalRefusal).toMatch(new RegExp(`The domain ${d.domain.replaceAll(".", "\\.")} was re-checked at approval and no longer holds: The TXT record`));
    expect(gone.approvalChecks).toEqual([]);
    await expect(approve(id)).rejects.toMatchObject({ code: "review_precondition_failed", message: expect.stringMatching(/no longer holds/) });
    expect((await db.select({ status: records.status }).from(records).where(eq(records.id, id)))[0]!.status).toBe("pending_review");

    // A refresh of a submission with a domain works (it reads the domain record it rests on).
    setDns(d.txtName, [d.txtValue]);
    const c = await createWalletChallenge(db, auth, { address: r.wallet, network: "ethereum", claim_type: "dex_control" });
    const fresh = await refreshEvidence(db, auth, id, { evidence: { challenge_id: c.id, signature: await r.signer.signMessage({ message: c.message }) } });
    expect(fresh).toMatchObject({ status: "pending_review", evidence: { challenge_id: c.id, domain_record: d.id } });

    const issued = await approve(id);
    expect(issued.status).toBe("active");
    expect(Date.now() - Date.parse(String(issued.evidence.domain_checked_at))).toBeLessThan(60_000);
  });

  it("a domain record no longer active at approval refuses it, naming the record", async () => {
    const auth = await liveCustomer();
    const d = await domainRecord(auth);
    const r = await submit(auth, "wallet_owner", { domain: d.domain, domain_record: d.id });
    const id = r.body.verification_id as string;
    await loadChecklist(id);
    await db.update(records).set({ status: "revoked" }).where(eq(records.id, d.id));
    expect((await loadChecklist(id)).approvalRefusal).toMatch(new RegExp(`The domain record ${d.id} no longer stands .*revoked`));
    await expect(approve(id)).rejects.toMatchObject({ code: "review_precondition_failed" });
  });
});


import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultInfo, vaultFixture, writeVaultInfo } from "@/tests/vault-info";
import { dexControl } from "./index";
import { dexChecklist, dexEvidence, dexProblem, type DexEvidence } from "./subtypes";
import { evidenceTooOld, takeSnapshot } from "./approval";

/**
 * dex_control's rules that need no database (spec 2.6): the subtype rules, each naming its
 * field; the 24 h evidence rule; the snapshots against the info API stand-in, which never
 * carry the builder's named wallet or its fee rates. (Not registered yet: see the module.)
 */
const WALLET = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const USER = "0x1111111111111111111111111111111111111111";
const VAULT = "0xdfc24b077bc1425ad1dea75bcb6f8158e10df303";
const base = { challenge_id: "wch_Xw2pL8d0Qn5rTs1yGv3k", signature: "0xabc", social_handle: "@acmetrade" };
const withDomain = { ...base, domain: "acme-trade.example.com", domain_record: "PRS-9Q7K2M4N6P8R0T1V3W5X" };
const ev = (o: Record<string, unknown>) => dexEvidence.parse(o);

describe("dex_control subtype rules", () => {
  it("accepts each subtype with its parts", () => {
    expect(dexProblem("builder", ev({ ...withDomain, user_address: USER }))).toBeNull();
    expect(dexProblem("vault_leader", ev({ ...withDomain, vault_address: VAULT }))).toBeNull();
    expect(dexProblem("wallet_owner", ev(withDomain))).toBeNull();
    expect(dexProblem("wallet_owner", ev({ ...withDomain, vault_address: VAULT }))).toBeNull();
    expect(dexProblem("wallet_owner", ev({ ...base, mode: "domainless", social_post_url: "https://social.example/acmetrade/status/1" }))).toBeNull();
  });

  it.each([
    ["subtype missing", undefined, withDomain, "subtype", "missing_field"],
    ["builder without domain", "builder", { ...base, user_address: USER }, "evidence.domain", "missing_field"],
    ["builder without its domain record", "builder", { ...base, domain: "acme-trade.example.com", user_address: USER }, "evidence.domain_record", "missing_field"],
    ["builder without user_address", "builder", withDomain, "evidence.user_address", "missing_field"],
    ["builder with a vault", "builder", { ...withDomain, user_address: USER, vault_address: VAULT }, "evidence.vault_address", "field_not_allowed"],
    ["vault_leader without vault", "vault_leader", withDomain, "evidence.vault_address", "missing_field"],
    ["vault_leader with user_address", "vault_leader", { ...withDomain, vault_address: VAULT, user_address: USER }, "evidence.user_address", "field_not_allowed"],
    ["domainless builder", "builder", { ...base, mode: "domainless", social_post_url: "https://x.example/p/1", user_address: USER }, "evidence.mode", "field_not_allowed"],
    ["domainless without its post", "wallet_owner", { ...base, mode: "domainless" }, "evidence.social_post_url", "missing_field"],
    ["domainless with a domain", "wallet_owner", { ...withDomain, mode: "domainless", social_post_url: "https://x.example/p/1" }, "evidence.domain", "field_not_allowed"],
    ["a post without domainless mode", "wallet_owner", { ...withDomain, social_post_url: "https://x.example/p/1" }, "evidence.social_post_url", "field_not_allowed"],
    ["wallet_owner with neither", "wallet_owner", base, "evidence.domain", "missing_field"],
    ["a handle that is none", "wallet_owner", { ...withDomain, social_handle: "not a handle!" }, "evidence.social_handle", "invalid_value"],
    ["a bad domain", "builder", { ...withDomain, domain: "localhost", user_address: USER }, "evidence.domain", "invalid_domain"],
  ] as const)("%s → 422 naming %s", (_name, subtype, evidence, param, code) => {
    expect(dexProblem(subtype as never, ev(evidence))).toMatchObject({ param, code });
  });

  it("through validate: evidence shape, expires_at and levels", () => {
    const v = (o: Record<string, unknown>) => dexControl.request.validate({ subject: WALLET, claim_type: "dex_control", claim: "x", visibility: "public", ...o } as never);
    expect(v({ subtype: "wallet_owner", evidence: withDomain })).toBeNull();
    expect(v({ subtype: "wallet_owner", evidence: { ...withDomain, user_address: "0x12" } })).toMatchObject({ param: "evidence.user_address" });
    expect(v({ subtype: "wallet_owner", evidence: { ...withDomain, extra: 1 } })).toMatchObject({ code: "unknown_field", param: "evidence.extra" });
    expect(v({ subtype: "wallet_owner", evidence: withDomain, expires_at: "2030-01-01T00:00:00Z" })).toMatchObject({ code: "field_not_allowed", param: "expires_at" });
    expect(v({ subtype: "wallet_owner", evidence: withDomain, evidence_level: "source_verified" })).toMatchObject({ code: "evidence_level_not_allowed" });
  });

  it("the checklist fits the subtype, and the domainless one asks for the post's author and token", () => {
    expect(dexChecklist("builder", {}).map((i) => i.key)).toEqual(["social_account", "builder_front_end"]);
    expect(dexChecklist("wallet_owner", { mode: "domainless" }).map((i) => i.key)).toEqual(["post_author", "post_token"]);
  });

  it("evidence must be younger than 24 h at approval", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    expect(evidenceTooOld({ checked_at: "2026-11-23T12:00:01Z" }, now)).toBeNull();
    expect(evidenceTooOld({ checked_at: "2026-11-23T12:00:00Z" }, now)).toMatch(/checked 24 h ago; it must be younger than 24 h/);
    expect(evidenceTooOld({}, now)).toMatch(/no check time/);
    expect(dexControl.review?.beforeApprove?.({ createdAt: now, evidence: { signature_checked: true, checked_at: "2026-11-20T00:00:00Z" } }, now)).toMatch(/refresh/);
  });

  it("approval needs a wallet signature the service checked; the re-run is offered only while it waits", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    const fresh = "2026-11-24T11:00:00Z";
    expect(dexControl.review?.beforeApprove?.({ createdAt: now, evidence: { signature_checked: false, checked_at: fresh } }, now))
      .toMatch(/wallet signature has not been checked by the service.*Re-run the automatic check/);
    expect(dexControl.review?.beforeApprove?.({ createdAt: now, evidence: { checked_at: fresh } }, now)).toMatch(/has not been checked/);
    expect(dexControl.review?.beforeApprove?.({ createdAt: now, evidence: { signature_checked: true, checked_at: fresh } }, now)).toBeNull();
    expect(dexControl.review?.awaitsSource?.({ signature_checked: false })).toBe(true);
    expect(dexControl.review?.awaitsSource?.({ signature_checked: true })).toBe(false);
  });

  it("the signed status carries evidence.mode and evidence.social_handle", () => {
    expect(dexControl.view?.publicFields?.({ evidence: { mode: "domainless", social_handle: "@acmetrade", address: WALLET }, links: [], extras: undefined }))
      .toEqual({ evidence: { mode: "domainless", social_handle: "@acmetrade" } });
  });
});

describe("dex_control snapshots from the info API", () => {
  let dir: string;
  let file: string;
  let api: Awaited<ReturnType<typeof startVaultInfo>>;
  const now = new Date("2026-11-24T12:00:00Z");
  const src = () => ({ baseUrl: api.url, timeoutMs: 500 });
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-dex-"));
    file = path.join(dir, "vault-info.json");
    api = await startVaultInfo(file);
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("builder: the approved maximum fee as a percent, without the named wallet or its fee rates", async () => {
    writeVaultInfo(file, { builderFees: { [`${USER}|${WALLET.toLowerCase()}`]: 25 } });
    const s = await takeSnapshot("builder", WALLET, ev({ ...withDomain, user_address: USER }) as DexEvidence, now, src());
    expect(s).toEqual({ kind: "snapshot", snapshot: { approved_max_fee: "0.025%", taken_at: now.toISOString() } });
    expect(JSON.stringify(s).toLowerCase()).not.toContain(USER.slice(2, 12));
    expect(JSON.stringify(s)).not.toMatch(/"25"|:25\b/);
  });

  it("a vault: its public details only when its leader is the proved wallet, else no snapshot", async () => {
    writeVaultInfo(file, { vaults: { [VAULT]: vaultFixture({ vaultAddress: VAULT, leader: WALLET, name: "Acme Alpha", followers: [USER] }) } });
    expect(await takeSnapshot("vault_leader", WALLET, ev({ ...withDomain, vault_address: VAULT }) as DexEvidence, now, src())).toEqual({
      kind: "snapshot",
      snapshot: { vault_name: "Acme Alpha", vault_address: VAULT, leader: WALLET.toLowerCase(), followers: 1, deposits_open: true, taken_at: now.toISOString() },
    });
    writeVaultInfo(file, { vaults: { [VAULT]: vaultFixture({ vaultAddress: VAULT, leader: USER }) } });
    expect(await takeSnapshot("vault_leader", WALLET, ev({ ...withDomain, vault_address: VAULT }) as DexEvidence, now, src()))
      .toEqual({ kind: "none", reason: "the vault's leader is not the proved wallet" });
    writeVaultInfo(file, {});
    expect((await takeSnapshot("wallet_owner", WALLET, ev({ ...withDomain, vault_address: VAULT }) as DexEvidence, now, src())).kind).toBe("none");
    expect(await takeSnapshot("wallet_owner", WALLET, ev(withDomain) as DexEvidence, now, src())).toEqual({ kind: "none", reason: "no vault was named" });
  });

  it("an unreachable info API is said so (the reviewer may approve without a snapshot)", async () => {
    writeVaultInfo(file, { failStatus: 503 });
    expect((await takeSnapshot("builder", WALLET, ev({ ...withDomain, user_address: USER }) as DexEvidence, now, src())).kind).toBe("unreachable");
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startVaultInfo, vaultFixture, writeVaultInfo } from "@/tests/vault-info";
import { feePercent, maxBuilderFee, userRole, vaultDetails } from "./vault-info";

/** The info API client against the stand-in (a real HTTP server on loopback, in the documented shapes). */
let dir: string;
let file: string;
let api: Awaited<ReturnType<typeof startVaultInfo>>;
const TIMEOUT_MS = 500;
const src = () => ({ baseUrl: api.url, timeoutMs: TIMEOUT_MS });

const USER = "0x1111111111111111111111111111111111111111";
const BUILDER = "0xB0B0b0b0B0b0b0b0b0b0b0b0B0b0b0B0b0B0b0B0";
const VAULT = "0xdfc24b077bc1425ad1dea75bcb6f8158e10df303";
const LEADER = "0x677d831aef5328190852e24f13c46cac05f984e7";

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-vault-"));
  file = path.join(dir, "vault-info.json");
  api = await startVaultInfo(file);
});
beforeEach(() => {
  writeVaultInfo(file, {
    builderFees: { [`${USER}|${BUILDER.toLowerCase()}`]: 10 },
    vaults: { [VAULT]: vaultFixture({ vaultAddress: VAULT, leader: LEADER, name: "HLP Strategy", followers: ["0x2222222222222222222222222222222222222222"] }) },
    roles: { [USER]: { role: "user" }, [BUILDER.toLowerCase()]: { role: "agent", data: { user: USER } } },
  });
  api.requests.length = 0;
});
afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("vault info API client", () => {
  it("maxBuilderFee: the bare integer in tenths of a basis point, 0 when none is approved, addresses sent in lower case", async () => {
    expect(await maxBuilderFee(USER, BUILDER, src())).toEqual({ kind: "found", value: 10 });
    expect(api.requests[0]).toEqual({ type: "maxBuilderFee", body: { type: "maxBuilderFee", user: USER, builder: BUILDER.toLowerCase() } });
    expect(await maxBuilderFee(BUILDER, USER, src())).toEqual({ kind: "found", value: 0 });
    expect(feePercent(10)).toBe("0.01%");
    expect(feePercent(100)).toBe("0.1%");
    expect(feePercent(5)).toBe("0.005%");
    expect(feePercent(0)).toBe("0%");
  });

  it("vaultDetails: the public snapshot, followers without the leader; null → not_found", async () => {
    expect(await vaultDetails(VAULT.toUpperCase().replace("0X", "0x"), src())).toEqual({
      kind: "found",
      value: { vaultAddress: VAULT, name: "HLP Strategy", leader: LEADER, followers: 1, allowDeposits: true, isClosed: false },
    });
    const missing = await vaultDetails("0x3333333333333333333333333333333333333333", src());
    expect(missing.kind).toBe("not_found");
  });

  it("userRole: user, agent with its master, missing", async () => {
    expect(await userRole(USER, src())).toEqual({ kind: "found", value: { role: "user" } });
    expect(await userRole(BUILDER, src())).toEqual({ kind: "found", value: { role: "agent", user: USER } });
    expect(await userRole("0x4444444444444444444444444444444444444444", src())).toEqual({ kind: "found", value: { role: "missing" } });
  });

  it("a 422 text/plain refusal, a 5xx, a 429 or a slow API is unreachable with the reason, never a no", async () => {
    const refused = await maxBuilderFee("0xnot-an-address", BUILDER, src());
    expect(refused).toEqual({ kind: "unreachable", reason: expect.stringMatching(/refused the request \(HTTP 422: Failed to deserialize/) });
    writeVaultInfo(file, { failStatus: 500 });
    expect(await vaultDetails(VAULT, src())).toEqual({ kind: "unreachable", reason: "The exchange's info API answered HTTP 500." });
    writeVaultInfo(file, { failStatus: 429 });
    expect((await userRole(USER, src())).kind).toBe("unreachable");
    writeVaultInfo(file, { delayMs: TIMEOUT_MS + 300 });
    expect(await maxBuilderFee(USER, BUILDER, src())).toEqual({ kind: "unreachable", reason: `The exchange's info API did not answer within ${TIMEOUT_MS} ms.` });
  });

  it("an answer about another vault, or not a vault, is unreachable", async () => {
    writeVaultInfo(file, { vaults: { [VAULT]: vaultFixture({ vaultAddress: LEADER, leader: LEADER }) } });
    expect((await vaultDetails(VAULT, src())).kind).toBe("unreachable");
    writeVaultInfo(file, { vaults: { [VAULT]: { name: 3 } } });
    expect(await vaultDetails(VAULT, src())).toEqual({ kind: "unreachable", reason: "The exchange's info API's answer is not a vault." });
  });
});

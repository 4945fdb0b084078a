import { randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

/**
 * The one-off sweep of finding 1 (docs/security.md): solana wallet records issued before the
 * strict check — rows written here as the lax verifier would have issued them — are listed
 * when their proof fails strict Ed25519; sound proofs and other networks are not.
 */
const { db, sandboxCustomer } = await dataLayerTest();
const { records } = await import("@/drizzle/schema");
const { runAdminCommand } = await import("@/lib/admin/commands");

const message = "Proof Records wallet challenge\nNonce: 7";
const forged = bs58.encode(Uint8Array.from([1, ...new Array(63).fill(0)]));

async function legacyRecord(accountId: string, network: string, address: string, signature: string, status: "active" | "revoked" = "active") {
  const id = `PRS-${randomBytes(10).toString("hex").toUpperCase().replace(/[ILOU]/g, "0").slice(0, 20)}`;
  await db.insert(records).values({
    id, accountId, environment: "live", claimType: "wallet_ownership", subject: address, claim: `Controls ${address}.`,
    evidenceLevel: "source_verified", visibility: "public", status, statusChangedAt: new Date(),
    evidencePublic: { challenge_id: "wch_legacy", address, network, message, signature, signature_scheme: "ed25519" },
  });
  return id;
}

describe("wallet-proofs sweep", () => {
  it("lists the forged solana proofs, and not the sound ones", async () => {
    const a = await sandboxCustomer({ tag: "sweep" });
    const secret = ed25519.utils.randomSecretKey();
    const good = bs58.encode(ed25519.getPublicKey(secret));
    const goodId = await legacyRecord(a.accountId, "solana", good, bs58.encode(ed25519.sign(new TextEncoder().encode(message), secret)));
    const zeroId = await legacyRecord(a.accountId, "solana", "11111111111111111111111111111111", forged);
    const identityId = await legacyRecord(a.accountId, "solana", "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM", forged, "revoked");
    // a real key, but the signature belongs to another message: also fails the strict check
    const badSigId = await legacyRecord(a.accountId, "solana", good, bs58.encode(ed25519.sign(new TextEncoder().encode("other"), secret)));

    const out = await runAdminCommand(db, ["wallet-proofs", "sweep"]);
    if (!out.ok) throw new Error(out.error.message);
    const listed = (out.result as { result: { weak_records: { verification_id: string; status: string; account_id: string; reason: string }[] } }["result"]).weak_records;
    const ids = listed.map((r) => r.verification_id);
    expect(ids).toEqual(expect.arrayContaining([zeroId, identityId, badSigId]));
    expect(ids).not.toContain(goodId);
    expect(listed.find((r) => r.verification_id === zeroId)).toMatchObject({ status: "active", account_id: a.accountId, reason: expect.stringMatching(/cannot sign/) });
    expect(listed.find((r) => r.verification_id === identityId)?.status).toBe("revoked");
  });
});

import { and, asc, inArray, sql } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import { challengeClaimTypes } from "@/lib/claims/registry";
import type { Db } from "@/lib/db/client";
import { normalizeAddress, type WalletNetwork } from "@/lib/proofs/wallet-address";
import { verifyWalletSignature } from "@/lib/proofs/verify-wallet-signature";

export type WeakWalletProof = {
  verification_id: string; account_id: string; environment: string; status: string; address: string; reason: string;
};

/**
 * One-off sweep after the strict Ed25519 fix (docs/security.md, finding 1): every solana
 * record proved by a wallet challenge (wallet_ownership; dex_control takes EVM wallets only) whose stored proof fails today's strict check — a weak address or
 * a signature only the lax (ZIP-215) verifier accepted. Lists them; revoking stays the
 * operator's decision (`POST /api/v1/records/{id}/lifecycle` with the owner's key, or the portal).
 * Solana checks need no network, so this reads and computes only.
 */
export async function sweepWalletProofs(db: Db): Promise<WeakWalletProof[]> {
  const rows = await db
    .select({
      id: records.id, accountId: records.accountId, environment: records.environment, status: records.status, evidence: records.evidencePublic,
    })
    .from(records)
    .where(and(inArray(records.claimType, challengeClaimTypes("wallet")), sql`${records.evidencePublic}->>'network' = 'solana'`))
    .orderBy(asc(records.createdAt));
  const weak: WeakWalletProof[] = [];
  for (const r of rows) {
    const address = String(r.evidence.address ?? "");
    const flag = (reason: string) =>
      weak.push({ verification_id: r.id, account_id: r.accountId, environment: r.environment, status: r.status, address, reason });
    const addr = normalizeAddress(address, "solana" satisfies WalletNetwork);
    if ("error" in addr) {
      flag(addr.error.message);
      continue;
    }
    const check = await verifyWalletSignature(addr, "solana", String(r.evidence.message ?? ""), String(r.evidence.signature ?? ""));
    if (check.kind !== "valid") flag("The stored signature does not verify under strict RFC 8032 Ed25519.");
  }
  return weak;
}

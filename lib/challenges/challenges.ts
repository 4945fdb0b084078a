import { randomBytes } from "node:crypto";
import { z } from "zod";
import { domainChallenges, walletChallenges } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError, type FieldError } from "@/lib/http/errors";
import { normalizeDomain, txtNameFor, txtValueFor } from "@/lib/proofs/domain-name";
import { normalizeAddress, WALLET_NETWORKS } from "@/lib/proofs/wallet-address";
import { walletMessage } from "@/lib/proofs/wallet-message";
import { challengeClaimTypes, primaryChallengeModule } from "@/lib/claims/registry";

export { consumeChallenge, findChallenge, loadChallenge } from "./challenge-store";

export const CHALLENGE_TTL_MS = 3600_000;
const rid = (prefix: string) => `${prefix}_${randomBytes(15).toString("base64url").replace(/[-_]/g, "x")}`;

export const domainChallengeRequest = z.strictObject({ domain: z.string().min(1).max(300) }).meta({ id: "DomainChallengeCreate" });
export const walletChallengeRequest = z
  .strictObject({
    address: z.string().min(1).max(200),
    network: z.enum(WALLET_NETWORKS),
    claim_type: z.enum(challengeClaimTypes("wallet")).optional(),
  })
  .meta({ id: "WalletChallengeCreate" });

const fail = (e: FieldError): never => {
  throw ApiError.fromField(e);
};

export async function createDomainChallenge(db: Db, auth: AuthContext, input: z.infer<typeof domainChallengeRequest>) {
  const n = normalizeDomain(input.domain);
  if ("error" in n) fail(n.error);
  const { domain } = n as { domain: string };
  const now = new Date();
  const token = randomBytes(24).toString("base64url");
  const row = {
    id: rid("dch"), accountId: auth.accountId, environment: auth.environment, domain, token,
    txtName: txtNameFor(domain), txtValue: txtValueFor(token), expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS), createdAt: now,
  };
  await db.insert(domainChallenges).values(row);
  return {
    object: "domain_challenge" as const, id: row.id, domain, token, txt_name: row.txtName, txt_value: row.txtValue,
    expires_at: row.expiresAt.toISOString(), created_at: now.toISOString(),
  };
}

export async function createWalletChallenge(db: Db, auth: AuthContext, input: z.infer<typeof walletChallengeRequest>) {
  const n = normalizeAddress(input.address, input.network);
  if ("error" in n) fail(n.error);
  const { address } = n as { address: string };
  const now = new Date();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  const id = rid("wch");
  const nonce = randomBytes(12).toString("hex");
  const claimType = input.claim_type ?? primaryChallengeModule("wallet").type;
  const base = getEnv().publicBaseUrl;
  const message = walletMessage({
    host: new URL(base).host, uri: base, address, network: input.network, claimType, nonce, issuedAt: now, expiresAt, challengeId: id,
  });
  await db.insert(walletChallenges).values({
    id, accountId: auth.accountId, environment: auth.environment, address, network: input.network, claimType, nonce, message, expiresAt, createdAt: now,
  });
  return {
    object: "wallet_challenge" as const, id, address, network: input.network, claim_type: claimType, message,
    expires_at: expiresAt.toISOString(), created_at: now.toISOString(),
  };
}


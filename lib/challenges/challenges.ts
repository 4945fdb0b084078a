import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { domainChallenges, walletChallenges } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db, DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError, type FieldError } from "@/lib/http/errors";
import { normalizeDomain, txtNameFor, txtValueFor } from "@/lib/proofs/domain-name";
import { normalizeAddress, WALLET_NETWORKS } from "@/lib/proofs/wallet-address";
import { walletMessage } from "@/lib/proofs/wallet-message";

export const CHALLENGE_TTL_MS = 3600_000;
const rid = (prefix: string) => `${prefix}_${randomBytes(15).toString("base64url").replace(/[-_]/g, "x")}`;

export const domainChallengeRequest = z.strictObject({ domain: z.string().min(1).max(300) }).meta({ id: "DomainChallengeCreate" });
export const walletChallengeRequest = z
  .strictObject({
    address: z.string().min(1).max(200),
    network: z.enum(WALLET_NETWORKS),
    claim_type: z.enum(["wallet_ownership", "dex_control"]).optional(),
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
  const claimType = input.claim_type ?? "wallet_ownership";
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

type ChallengeTable = typeof domainChallenges | typeof walletChallenges;
const PARAM = "evidence.challenge_id";

/** The caller's challenge in whatever state (open, used, expired), or null; for the portal. */
export async function findChallenge<T extends ChallengeTable>(db: DbOrTx, table: T, auth: AuthContext, id: string) {
  const [row] = await db
    .select()
    .from(table as ChallengeTable)
    .where(and(eq(table.id, id), eq(table.accountId, auth.accountId), eq(table.environment, auth.environment)));
  return (row as T["$inferSelect"] | undefined) ?? null;
}

/** The caller's own, unexpired, unused challenge — or the field error saying why not. */
export async function loadChallenge<T extends ChallengeTable>(db: DbOrTx, table: T, auth: AuthContext, id: string, now: Date) {
  const [row] = await db
    .select()
    .from(table as ChallengeTable)
    .where(and(eq(table.id, id), eq(table.accountId, auth.accountId), eq(table.environment, auth.environment)));
  if (!row) return { error: { code: "challenge_not_found", param: PARAM, message: `No challenge ${id.slice(0, 60)} for this API key.` } as FieldError };
  if (row.usedAt) return { error: { code: "challenge_used", param: PARAM, message: "This challenge has already been used; request a new one." } as FieldError };
  if (row.expiresAt.getTime() <= now.getTime()) {
    return { error: { code: "challenge_expired", param: PARAM, message: "This challenge expired (challenges live one hour); request a new one." } as FieldError };
  }
  return { row: row as T["$inferSelect"] };
}

/** Mark the challenge used inside the issuing transaction; a concurrent use loses. */
export async function consumeChallenge(tx: DbOrTx, table: ChallengeTable, id: string, recordId: string): Promise<FieldError | null> {
  const r = await tx
    .update(table)
    .set({ usedAt: new Date(), usedByRecord: recordId })
    .where(and(eq(table.id, id), isNull(table.usedAt)))
    .returning({ id: table.id });
  return r.length === 1 ? null : { code: "challenge_used", param: PARAM, message: "This challenge has already been used; request a new one." };
}

"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { domainChallenges, walletChallenges } from "@/drizzle/schema";
import type { Environment } from "@/lib/accounts/types";
import { requireAccount } from "@/lib/auth/session";
import { createDomainChallenge, createWalletChallenge, findChallenge, walletChallengeRequest } from "@/lib/challenges/challenges";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { EVM_NETWORKS } from "@/lib/proofs/wallet-address";
import { domainFromPasted } from "@/lib/proofs/domain-name";
import { primaryChallengeModule } from "@/lib/claims/registry";
import { createRecord } from "@/lib/records/create-record";
import { portalEnvironment } from "@/lib/accounts/live-access";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { DOMAIN_CHALLENGE_ID_RE, WALLET_CHALLENGE_ID_RE } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { apiFieldErrors, formText, type FormState } from "@/lib/forms/form-state";
import { guardedAction, errorState, formErrorState } from "@/lib/forms/guarded-action";

// Proofs in the portal call the same library functions as the API, as the signed-in
// account (history actor `owner:portal`), never with a stored API key. Each action re-reads
// the session; challenges are looked up under that account and environment only, so a
// forged challenge id reads as "not found". Next refuses server-action POSTs from another
// Origin: that is the CSRF check.

/** A record the portal just created (or found again on a repeated click). */
export type ProofRecord = { id: string; status: string; subject: string; environment: Environment; certificateUrl: string | null };
export type ProofState = { error?: string; notFound?: string; issued?: ProofRecord; pending?: ProofRecord };
export type WalletChallenge = { id: string; address: string; network: string; message: string; expiresAt: string };

/** The record a met challenge of this kind proves: the claim type the registry names for it, and what that type asks. */
function proofRequest(kind: "domain" | "wallet", proof: { subject: string; challengeId: string; signature?: string }, visibility: string) {
  const mod = primaryChallengeModule(kind);
  return { ...mod.challenge.primary.proofRequest(proof), claim_type: mod.type, visibility };
}


async function portalContext(environment: unknown) {
  const account = await requireAccount("/proofs");
  const env = portalEnvironment(account, environment, "Live proofs");
  if ("error" in env) return env;
  return { auth: portalAuth(account, env.environment), db: await getDb() } as const;
}

/** What a failure that is not the caller's fault says: logged in full, shown in general. */
function unexpected(what: string, e: unknown): { error: string } {
  log().error({ err: e }, `portal ${what} failed`);
  return { error: "That did not work because of a problem on our side. Please try again." };
}

function answer(bodyJson: string): ProofState {
  const b = JSON.parse(bodyJson) as { verification_id: string; status: string; subject: string; environment: Environment; certificate_url: string | null };
  const record = { id: b.verification_id, status: b.status, subject: b.subject, environment: b.environment, certificateUrl: b.certificate_url };
  return b.status === "pending_review" ? { pending: record } : { issued: record };
}

/**
 * The idempotency key of a portal proof is fixed by its challenge: a second click (or a
 * retry after a lost answer) returns the same record instead of failing as "used".
 */
const proofKey = (challengeId: string) => `portal-proof-${challengeId}`;

/** The domain typed is put back on every refusal, with the message beside it. */
export type DomainRequestState = FormState<{ domain: string }>;

export const requestDomainChallengeAction = guardedAction(async (_prev: DomainRequestState, form: FormData): Promise<DomainRequestState> => {
  const typed = formText(form, "domain", 2400).trim();
  const values = { domain: typed };
  // A pasted web address is taken for its host, and the page says so (`from`).
  const { domain, pastedUrl } = domainFromPasted(typed);
  const ctx = await portalContext(form.get("environment"));
  if ("error" in ctx) return { values, errors: { form: ctx.error } };
  if (!domain) return { values, errors: { domain: "Enter the domain you want to prove, e.g. example.com." } };
  if (domain.length > 300) return { values, errors: { domain: "A domain name has at most 300 characters here." } };
  let id: string;
  try {
    id = (await createDomainChallenge(ctx.db, ctx.auth, { domain })).id;
  } catch (e) {
    if (e instanceof ApiError) return { values, errors: apiFieldErrors(e, ["domain"]) };
    return { values, errors: { form: unexpected("domain challenge", e).error } };
  }
  const took: Record<string, string> = pastedUrl ? { from: pastedUrl.slice(0, 300) } : {};
  redirect(`/proofs?${new URLSearchParams({ environment: ctx.auth.environment, challenge: id, ...took })}#domain`);
}, formErrorState);

export const checkDomainAction = guardedAction(async (_prev: ProofState, form: FormData): Promise<ProofState> => {
  const ctx = await portalContext(form.get("environment"));
  if ("error" in ctx) return { error: ctx.error };
  const challengeId = String(form.get("challenge_id") ?? "");
  const ch = DOMAIN_CHALLENGE_ID_RE.test(challengeId) ? await findChallenge(ctx.db, domainChallenges, ctx.auth, challengeId) : null;
  if (!ch) return { error: "No such challenge for this account and environment. Request a new one." };
  const visibility = form.get("visibility") === "public" ? "public" : "private";
  try {
    const result = await createRecord(ctx.db, ctx.auth, proofRequest("domain", { subject: ch.domain, challengeId: ch.id }, visibility), proofKey(ch.id));
    return answer(result.bodyJson);
  } catch (e) {
    if (!(e instanceof ApiError)) return unexpected("domain check", e);
    // A failed check writes nothing: the challenge stays open for the next try.
    // The check's own message says what to publish and what DNS holds instead: shown as is.
    if (e.code === "dns_record_not_found") {
      return { notFound: `TXT record not found yet at ${ch.txtName}. DNS can take a few minutes to reach every resolver; check again. ${e.message}` };
    }
    if (e.code === "idempotency_key_in_use") return { error: "A check of this challenge is still running; wait a moment and check again." };
    return { error: e.message };
  }
}, errorState);

const walletChallengeInput = z.strictObject({
  environment: z.enum(["sandbox", "live"]),
  address: z.string().min(1).max(200),
  network: z.enum(EVM_NETWORKS),
  // A claim type whose records rest on a wallet challenge of its own (a form's walletChallenge); the proof's own by default.
  claimType: walletChallengeRequest.shape.claim_type,
});

export const requestWalletChallengeAction = guardedAction(async (input: unknown): Promise<{ error?: string; challenge?: WalletChallenge }> => {
  const parsed = walletChallengeInput.safeParse(input);
  if (!parsed.success) return { error: "Connect an EVM wallet and choose one of the listed networks." };
  const ctx = await portalContext(parsed.data.environment);
  if ("error" in ctx) return { error: ctx.error };
  try {
    const c = await createWalletChallenge(ctx.db, ctx.auth, { address: parsed.data.address, network: parsed.data.network, claim_type: parsed.data.claimType });
    return { challenge: { id: c.id, address: c.address, network: c.network, message: c.message, expiresAt: c.expires_at } };
  } catch (e) {
    if (e instanceof ApiError) return { error: e.message };
    return unexpected("wallet challenge", e);
  }
}, errorState);

const walletProofInput = z.strictObject({
  environment: z.enum(["sandbox", "live"]),
  challengeId: z.string().regex(WALLET_CHALLENGE_ID_RE),
  // The subject is the challenge's own address; the browser only says which challenge.
  signature: z.string().min(1).max(4000),
  visibility: z.enum(["public", "private"]),
});

export const submitWalletProofAction = guardedAction(async (input: unknown): Promise<ProofState> => {
  const parsed = walletProofInput.safeParse(input);
  if (!parsed.success) return { error: "The signed challenge could not be read; request a new challenge and sign again." };
  const ctx = await portalContext(parsed.data.environment);
  if ("error" in ctx) return { error: ctx.error };
  const { challengeId, signature, visibility } = parsed.data;
  const ch = await findChallenge(ctx.db, walletChallenges, ctx.auth, challengeId);
  if (!ch) return { error: "No such challenge for this account and environment. Request a new one." };
  try {
    const result = await createRecord(ctx.db, ctx.auth, proofRequest("wallet", { subject: ch.address, challengeId, signature }, visibility), proofKey(challengeId));
    return answer(result.bodyJson);
  } catch (e) {
    if (!(e instanceof ApiError)) return unexpected("wallet proof", e);
    if (e.code === "idempotency_key_in_use") return { error: "This proof is still being checked; wait a moment and try again." };
    return { error: e.message };
  }
}, errorState);

import { feePercent, maxBuilderFee, vaultDetails, vaultInfoApi } from "@/lib/connectors/vault-info";
import type { HttpSource } from "@/lib/connectors/http";
import { sameAddress } from "@/lib/proofs/wallet-address";
import { domainOwnership } from "../domain-ownership";
import type { ApprovalAnswer, ApprovalInput } from "../types";
import type { DexSubtype } from "./subtypes";
import { domainRecordProblem } from "./links";

/* What is asked at approval: a checked signature, evidence younger than 24 h, the domain record again, and the public snapshot. */

/** Evidence checks must be younger than this at approval. */
export const DEX_EVIDENCE_MAX_AGE_MS = 24 * 3600_000;

/**
 * Approval needs a wallet signature the service checked itself (CONTRACT "What was checked"):
 * one whose check needed the network (a smart account's EIP-1271/6492 check) while its RPC
 * could not be reached is unchecked, and waits for "Re-run automatic check" (`checking.recheck`).
 */
export function signatureUnchecked(evidence: Record<string, unknown>): string | null {
  if (evidence.signature_checked === true) return null;
  return "The wallet signature has not been checked by the service: the network could not be asked when it was submitted " +
    "(a smart account's signature is checked on-chain). Re-run the automatic check once the network answers; approval needs a checked signature.";
}

/** Spec 2.6 rule 2: why approval is refused now, or null. */
export function evidenceTooOld(evidence: Record<string, unknown>, now: Date): string | null {
  const checked = Date.parse(String(evidence.checked_at ?? ""));
  if (Number.isNaN(checked)) return "The evidence carries no check time; the customer must refresh it.";
  const age = now.getTime() - checked;
  if (age < DEX_EVIDENCE_MAX_AGE_MS) return null;
  return `The evidence was checked ${Math.floor(age / 3600_000)} h ago; it must be younger than 24 h at approval. The customer must refresh it (re-sign the wallet challenge).`;
}

/**
 * The public snapshot taken at approval (spec 2.6 rules 4 and 6). builder: the maximum fee
 * the named wallet approved for the builder, as a percent — never that wallet's address or
 * its fee rates. A vault: its name, leader, followers and whether deposits are open, only
 * when its leader is the proved wallet; otherwise "No snapshot" with the reason.
 * `unreachable`: the info API gave no answer; the reviewer may approve without a snapshot.
 */
export type DexSnapshot =
  | { kind: "snapshot"; snapshot: Record<string, unknown> }
  | { kind: "none"; reason: string }
  | { kind: "unreachable"; reason: string };

export async function takeSnapshot(
  subtype: DexSubtype, address: string, e: { user_address?: string; vault_address?: string }, now: Date, api: HttpSource = vaultInfoApi(),
): Promise<DexSnapshot> {
  const at = now.toISOString();
  if (subtype === "builder") {
    if (!e.user_address) return { kind: "none", reason: "no wallet was named for the fee" };
    const fee = await maxBuilderFee(e.user_address!, address, api);
    if (fee.kind === "unreachable") return fee;
    if (fee.kind === "not_found") return { kind: "none", reason: "the exchange answered no fee approval" };
    return { kind: "snapshot", snapshot: { approved_max_fee: feePercent(fee.value), taken_at: at } };
  }
  if (!e.vault_address) return { kind: "none", reason: "no vault was named" };
  const vault = await vaultDetails(e.vault_address, api);
  if (vault.kind === "unreachable") return vault;
  if (vault.kind === "not_found") return { kind: "none", reason: "the exchange has no such vault" };
  if (!sameAddress(vault.value.leader, address, "evm")) return { kind: "none", reason: "the vault's leader is not the proved wallet" };
  const v = vault.value;
  return {
    kind: "snapshot",
    snapshot: { vault_name: v.name, vault_address: v.vaultAddress, leader: v.leader, followers: v.followers, deposits_open: v.allowDeposits && !v.isClosed, taken_at: at },
  };
}

/**
 * At approval the domain part is asked again (CONTRACT "What was checked": the certificate says
 * the domain was checked): the domain record must still be an active proof of the domain, and
 * its DNS TXT record — asked now through domain_ownership's monitor — still published. Gone,
 * or DNS silent → approval refused with the reason; nothing changes. Domainless submissions
 * have no domain to ask.
 */
export async function recheckDomainAtApproval(submission: ApprovalInput, now: Date): Promise<Extract<ApprovalAnswer, { kind: "ok" | "refused" }>> {
  const e = submission.evidence;
  const signed = e.signature_checked === true && typeof e.checked_at === "string"
    ? [`The wallet signature was checked by the service at ${e.checked_at}.`] : [];
  if (typeof e.domain !== "string" || typeof e.domain_record !== "string") return { kind: "ok", evidence: e, checked: signed };
  const target = submission.linked.get("domain_record");
  const problem = domainRecordProblem(target, e.domain, { environment: submission.environment, now });
  if (problem || !target) return { kind: "refused", reason: `The domain record ${e.domain_record} no longer stands for ${e.domain}: ${problem?.message ?? "not found."}` };
  // domain_ownership's own periodic re-check (not through the registry, which lists this module).
  const monitor = domainOwnership.policy?.recheck;
  if (monitor?.kind !== "monitor") throw new Error("domain_ownership records are re-checked periodically");
  const found = await monitor.run(target.evidencePublic, now);
  if (found.kind === "unreachable") {
    return { kind: "refused", reason: `The domain ${e.domain} could not be re-checked at approval: DNS did not answer (${found.reason}). Try again in a moment.` };
  }
  if (found.kind === "lapsed") return { kind: "refused", reason: `The domain ${e.domain} was re-checked at approval and no longer holds: ${found.reason}` };
  const at = now.toISOString();
  return {
    kind: "ok", evidence: { ...e, domain_checked_at: at },
    checked: [...signed, `The domain record ${e.domain_record} is active and its DNS TXT record for ${e.domain} is still published (asked at ${at}).`],
  };
}

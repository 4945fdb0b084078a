import type { FieldError } from "@/lib/http/errors";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import type { LinkTarget } from "@/lib/record-model/link-types";
import type { ClaimContext } from "../types";

/* The records a dex_control submission rests on: the domain record of its domain, and the record it renews. */

const linkedInvalid = (why: string): FieldError => ({ code: "linked_record_invalid", param: "evidence.domain_record", message: why });

/** The domain record must be this account's, in this environment, active, a domain proof of exactly this domain. */
export function domainRecordProblem(t: LinkTarget | undefined, domain: string, on: { environment: string; now: Date }): FieldError | null {
  if (!t) return linkedInvalid("No record of this account has that id.");
  if (t.environment !== on.environment) return linkedInvalid(`The domain record is a ${t.environment} record; this submission is ${on.environment}.`);
  if (t.claimType !== "domain_ownership") return linkedInvalid("domain_record must be a domain_ownership record.");
  const status = effectiveStatus(t, on.now.getTime()).status;
  if (status !== "active") return linkedInvalid(`The domain record is ${status}; it must be active.`);
  const d = normalizeDomain(domain);
  if (!("domain" in d) || t.subject !== d.domain) return linkedInvalid(`domain_record proves ${t.subject}, not ${domain}.`);
  return null;
}

export const RENEWS = "renews";

/** A renewal names this account's dex_control record of the same wallet, still in force. */
export function renewalProblem(t: LinkTarget | undefined, wallet: string, ctx: ClaimContext): FieldError | null {
  const bad = (why: string): FieldError => ({ code: "linked_record_invalid", param: "evidence.renews", message: why });
  if (!t) return bad("No record of this account has that id.");
  if (t.claimType !== "dex_control" || t.environment !== ctx.auth.environment) return bad(`renews must name a ${ctx.auth.environment} dex_control record.`);
  const status = effectiveStatus(t, ctx.now.getTime()).status;
  if (status !== "active" && status !== "suspended") return bad(`The record renewed is ${status}; only a record still in force is renewed.`);
  if (t.subject.toLowerCase() !== wallet.trim().toLowerCase()) return bad(`The record renewed is about ${t.subject}, not this wallet.`);
  return null;
}

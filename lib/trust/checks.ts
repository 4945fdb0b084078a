import type { CheckedFact, ClaimModule } from "@/lib/claims/types";

/**
 * What was checked about a record, by whom, on what (CONTRACT "Trust model" → "What was
 * checked"): `by: "source"` or `"signature"` — a check the service ran itself (a connector,
 * a signature); `"reviewer"` — a Proof Records reviewer confirmed it; `"account"` — only the
 * account said so. Derived from the record's type, level and public evidence alone, so the
 * record object, signed status, certificate and VC name the same checks, and a record
 * issued from now on signs them in its payload.
 */
export type Check = { fact: string; by: "source" | "signature" | "reviewer" | "account"; source?: string; at: string };

type CheckedRecord = { evidenceLevel: string; subject: string; evidence: Record<string, unknown>; at: Date };

/** `module`: the record's claim type, already resolved by the caller. */
export function checksOf(r: CheckedRecord, module: ClaimModule): Check[] {
  const at = r.at.toISOString();
  if (r.evidenceLevel === "participant_attested") return [{ fact: "statement", by: "account", at }];
  const facts: readonly CheckedFact[] = module.view?.facts?.(r.subject, r.evidence) ?? [];
  if (r.evidenceLevel === "evidence_verified") {
    // A reviewer confirmed it: every fact is the reviewer's, whatever a source would have said.
    const named = facts.length > 0 ? facts : [{ fact: "claim", by: "source" as const, source: sourceNamed(r.evidence) }];
    return named.map((f) => ({ fact: f.fact, by: "reviewer" as const, ...(f.source ? { source: f.source } : {}), at }));
  }
  if (facts.length === 0) return [{ fact: "claim", by: "source", ...(sourceNamed(r.evidence) ? { source: sourceNamed(r.evidence)! } : {}), at }];
  return facts.map((f) => ({ fact: f.fact, by: f.by, ...(f.source ? { source: f.source } : {}), at }));
}

const sourceNamed = (e: Record<string, unknown>) => (typeof e.source_name === "string" ? e.source_name : undefined);

import type { RecordCreateInput } from "@/lib/record-model/schemas";
import type { CheckOutcome } from "./types";

type Passed = Exclude<CheckOutcome, { kind: "fail" }>;

export const SECRET_REMOVED = "[secret removed]";

/**
 * What a record keeps of a check that used secrets (`request.secrets` of its claim type: evidence
 * fields such as an API secret): the check may read them, nothing stored may hold them.
 * Removes those fields at any depth of the public and private evidence, and every
 * occurrence of their values in any string kept (evidence, the review reason) — so a check
 * that copied a secret into a message cannot store it either.
 */
export function stripSecrets<O extends Passed>(outcome: O, secretFields: readonly string[], input: RecordCreateInput): O {
  if (secretFields.length === 0) return outcome;
  const values = secretFields
    .map((f) => (input.evidence && Object.hasOwn(input.evidence, f) ? input.evidence[f] : undefined))
    .filter((v): v is string => typeof v === "string" && v.length >= 4);
  const names = new Set(secretFields);
  const scrub = (s: string) => values.reduce((acc, v) => acc.split(v).join(SECRET_REMOVED), s);
  const clean = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(clean);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).filter(([k]) => !names.has(k)).map(([k, x]) => [k, clean(x)]));
    }
    return v;
  };
  return {
    ...outcome,
    publicEvidence: clean(outcome.publicEvidence) as Record<string, unknown>,
    ...(outcome.privateEvidence !== undefined && { privateEvidence: clean(outcome.privateEvidence) as Record<string, unknown> }),
    ...(outcome.kind === "review" && { reason: scrub(outcome.reason) }),
  };
}

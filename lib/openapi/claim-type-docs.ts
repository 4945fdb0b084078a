import { documentedClaimTypes } from "@/lib/claims/registry";

export type ClaimTypeDocs = ReturnType<typeof claimTypeDocs>;

/**
 * What the claim types contribute, read from their definitions (lib/claims/): the evidence
 * schemas, one request example each (the reviewed fallback under "reviewed"), the codes
 * their checks answer and one sentence each for createRecord's description.
 */
export function claimTypeDocs() {
  const types = documentedClaimTypes();
  const key = (t: string) => (t === "*" ? "reviewed" : t);
  return {
    evidenceSchemas: types.flatMap((m) => [m.docs.evidenceSchema, m.docs.fieldsSchema].filter((s) => s !== undefined)),
    examples: Object.fromEntries(types.map((m) => [key(m.type), m.docs.example])) as Record<string, { summary: string; value: Record<string, unknown> }>,
    errors: [...new Set(types.flatMap((m) => m.docs.errors))],
    describe: types.map((m) => m.docs.describe).join(" "),
    offlineExamples: types.filter((m) => m.checking?.offline).map((m) => m.docs.example.value),
  };
}

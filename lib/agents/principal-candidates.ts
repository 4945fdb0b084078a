import { and, desc, eq, inArray } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import type { Environment } from "@/lib/accounts/types";
import { legalIdentityClaimTypes } from "@/lib/claims/registry";
import type { PrincipalRule } from "@/lib/claims/types";
import type { DbOrTx } from "@/lib/db/client";

export type PrincipalCandidate = { verification_id: string; subject: string; environment: Environment };

const MAX_CANDIDATES = 100;

/**
 * The records of this account an agent in `agentEnvironment` could name as its principal
 * now: records proving a legal identity that pass the same rule the link itself is held to
 * (the agent type's `principal.problem`: public, active, checked, live for a live agent), newest first. Only
 * offered in a form: changePrincipal judges whatever is sent.
 */
export async function listPrincipalCandidates(
  db: DbOrTx, accountId: string, agentEnvironment: Environment, principalProblem: PrincipalRule, now = Date.now(),
): Promise<PrincipalCandidate[]> {
  const rows = await db.select().from(records)
    .where(and(
      eq(records.accountId, accountId), inArray(records.claimType, legalIdentityClaimTypes()),
      eq(records.visibility, "public"), inArray(records.status, ["active"]),
    ))
    .orderBy(desc(records.createdAt))
    .limit(MAX_CANDIDATES);
  return rows
    .filter((r) => principalProblem(r, agentEnvironment, now) === null)
    .map((r) => ({ verification_id: r.id, subject: r.subject, environment: r.environment }));
}

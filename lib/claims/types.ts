import type { AuthContext } from "@/lib/accounts/types";
import type { Db, Tx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";
import type { EvidenceLevel, RecordCreateInput } from "@/lib/records/schemas";

/** What a claim check decides. Expected outcomes are data, never exceptions. */
export type CheckOutcome =
  | {
      kind: "issue";
      evidenceLevel: EvidenceLevel;
      publicEvidence: Record<string, unknown>;
      privateEvidence?: Record<string, unknown>;
      recheckAt?: Date | null;
      commit?: CommitHook;
    }
  | {
      kind: "review";
      /** The level the record issues at once a reviewer confirms it. */
      evidenceLevel: EvidenceLevel;
      reason: string;
      publicEvidence: Record<string, unknown>;
      privateEvidence?: Record<string, unknown>;
      commit?: CommitHook;
    }
  | { kind: "fail"; error: FieldError };

/** Runs inside the issuing transaction (e.g. to use up a challenge); an error rolls it back. */
export type CommitHook = (tx: Tx, recordId: string) => Promise<FieldError | null>;

export type ClaimContext = { auth: AuthContext; now: Date; db: Db };

/** What asking the source again for a pending submission finds (the reviewers' "re-run automatic check"). */
export type RecheckOutcome =
  | { kind: "issue"; evidenceLevel: EvidenceLevel; publicEvidence: Record<string, unknown>; recheckAt?: Date | null }
  | { kind: "unreachable"; reason: string }
  | { kind: "fail"; reason: string };

export interface ClaimModule {
  /** The check does no I/O (no DNS, RPC or register): the create can be written in one statement. */
  offline?: boolean;
  /** Type-specific validation of an already shape-checked request; first problem or null. */
  validate(input: RecordCreateInput): FieldError | null;
  check(input: RecordCreateInput, ctx: ClaimContext): Promise<CheckOutcome>;
  /**
   * For claim types with a connector: check a submission that went to review because the
   * source could not be reached, from the evidence stored with it. Absent: only a human decides.
   */
  recheck?(evidence: Record<string, unknown>, now: Date): Promise<RecheckOutcome>;
  /** Issued records of this type are re-checked periodically (domain: the TXT record must stay); ms between checks. */
  recheckIntervalMs?(): number;
}

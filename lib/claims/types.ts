import type { AuthContext } from "@/lib/accounts/types";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import type { ZodType } from "zod";
import type { ErrorCode, FieldError } from "@/lib/http/errors";
import type { EvidenceLevel, RecordCreateInput } from "@/lib/record-model/schemas";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import type { LinkedStanding, LinkedTarget, LinkTarget } from "@/lib/record-model/link-types";
import type { LookupKind } from "@/lib/format/normalize";

/** What a claim check decides. Expected outcomes are data, never exceptions. */
export type CheckOutcome =
  | {
      kind: "issue";
      evidenceLevel: EvidenceLevel;
      publicEvidence: Record<string, unknown>;
      privateEvidence?: Record<string, unknown>;
      /** The end of validity the type sets (e.g. a mandate's valid_until); absent: the request's or the default. */
      expiresAt?: Date;
      commit?: CommitHook;
    }
  | {
      kind: "review";
      /**
       * The level the record issues at once a reviewer confirms it: `evidence_verified` (a
       * reviewer's approval is never the service's own check). A re-run of the automatic check
       * (`checking.recheck`) issues at the level it finds instead.
       */
      evidenceLevel: EvidenceLevel;
      reason: string;
      publicEvidence: Record<string, unknown>;
      privateEvidence?: Record<string, unknown>;
      commit?: CommitHook;
    }
  | { kind: "fail"; error: FieldError };

/** Runs inside the issuing transaction (e.g. to use up a challenge); an error rolls it back. */
export type CommitHook = (tx: Tx, recordId: string) => Promise<FieldError | null>;

/**
 * The records a request names (`request.links`), loaded once by the pipeline by role — only this
 * account's, in either environment; an id that names none is absent. The check decides
 * which are acceptable (same environment, active, about the same subject).
 */
export type ClaimContext = {
  auth: AuthContext; now: Date; db: Db; linked: ReadonlyMap<string, LinkTarget>;
  /** The submitting account as the public reads it (its name, verified organisation, proved domains), loaded by the pipeline when asked. */
  account: () => Promise<AccountProfile>;
};

/** A record another one rests on, by role: the pipeline writes it with the record (record_links). */
export type RecordLinkRequest = { role: string; targetId: string };

/**
 * What a link of one role means once the record is issued (`request.links.means`); a role not
 * listed is a reference: checked by `check` when the request names it, nothing follows after.
 * - `part`: the record stands only while every part is active (CONTRACT "What still stands"):
 *   the system suspends it, naming the part, the moment one stops being active, reinstates it
 *   when all are active again, announces a part's change as this record's own
 *   `record.status_changed` (operation `part_changed`), and no reviewer approves it resting on a
 *   lapsed part (lib/records/apply-transition.ts). A type with a part role has only part roles.
 * - `renews`: issuing this record (on approval) supersedes the linked one, still active or
 *   suspended, in the same transaction.
 * - `principal`: the owner may change the link after issue (PATCH /api/v1/records/{id}/principal,
 *   lib/records/change-principal.ts), judged by `problem`, which also lists the candidates.
 */
export type LinkMeaning = { kind: "part" } | { kind: "renews" } | { kind: "principal"; problem: PrincipalRule };

/** What a periodic re-check of issued records of the type is (`policy.recheck`). */
export type RecheckPolicy =
  /**
   * Re-checked every `intervalMs()` by the one scheduler: a lapse suspends the record (by
   * `system:recheck`), a pass reinstates a record a re-check suspended (never one its owner
   * suspended), an unreachable source changes nothing; due re-checks run before a reinstatement.
   */
  | { kind: "monitor"; intervalMs(): number; run(evidence: Record<string, unknown>, now: Date): Promise<MonitorOutcome> }
  /**
   * Valid at most `validityDays` (the default too: a request asking for a later `expires_at` is
   * refused) and re-checked when it ends (recheck_at = expires_at): renewal needs fresh evidence.
   */
  | { kind: "renewal"; validityDays: number };

/** What asking the source again for a pending submission finds (the reviewers' "re-run automatic check"). */
export type RecheckOutcome =
  | { kind: "issue"; evidenceLevel: EvidenceLevel; publicEvidence: Record<string, unknown> }
  /** The source now confirms what it checks, but a reviewer still decides (e.g. dex_control's wallet signature): the submission waits with this evidence. */
  | { kind: "checked"; publicEvidence: Record<string, unknown>; reason: string }
  | { kind: "unreachable"; reason: string }
  | { kind: "fail"; reason: string };

/** What a periodic re-check of an issued record finds (the scheduler: lib/records/recheck-records.ts). */
export type MonitorOutcome =
  | { kind: "holds"; publicEvidence?: Record<string, unknown> }
  | { kind: "lapsed"; reason: string }
  | { kind: "unreachable"; reason: string };

/** What a reviewer confirms before approving; every item must be ticked. */
/**
 * One thing a reviewer ticks before approving. `fields`: what in the submission the item asks
 * them to confirm — `subject`, `claim` (shown at the top of the review page) or `evidence.…`
 * (shown by the type's review view, components/claims, as `data-field`): the reviewer sees on
 * the page every fact they are asked to confirm (issue 39; tests/components/review-views.test.ts).
 */
export type ChecklistItem = { key: string; label: string; fields: readonly string[] };

/** How the type is documented (OpenAPI document and docs/api.md): read from the registry, never written out elsewhere. */
export type ClaimDocs = {
  /** One sentence for createRecord's description: what `evidence` holds and what the subject is. */
  describe: string;
  /** The evidence schema, registered as an OpenAPI component (its zod `.meta({id})` names it). */
  evidenceSchema?: ZodType;
  /** The type's own top-level request fields (`request.requestFields`) as one documented object, also a component. */
  fieldsSchema?: ZodType;
  /** The 422 codes its check can answer, beyond the shared validation codes. */
  errors: readonly ErrorCode[];
  example: { summary: string; value: Record<string, unknown> };
};

/**
 * How the portal's "New record" form (app/records/new) offers a type. Plain data: the form
 * is generated from it and from the type's evidence schema (lib/claims/form-spec.ts), so no
 * page names a claim type.
 */
export type ClaimForm = {
  /** The choice's name in plain words. */
  label: string;
  /** One sentence under the choice: what is checked, and how. */
  summary: string;
  /** Issued through a flow of its own elsewhere in the portal (a challenge): the form links there instead of asking. */
  href?: string;
  /** The person names the claim type (the reviewed fallback stands for every type without a module). */
  namesItsType?: boolean;
  /** Top-level request fields this type takes besides subject and claim (e.g. the source a reviewer checks). */
  requestFields?: readonly ("source_name" | "source_url" | "checked_at")[];
  /**
   * Per field, by request path ("subject", "evidence.lei", "scope.max_amount"): a label, help
   * text or placeholder beyond what the schema says; `asText` shows a timestamp as a plain text
   * box, sent exactly as typed (a value a signature covers must not be reformatted); `options`
   * names an enum's values in plain words; `default` is the value it starts with. A nested object's own entry ("evidence.payee") labels its section.
   */
  fields?: Readonly<Record<string, { label?: string; help?: string; placeholder?: string; asText?: boolean; options?: Readonly<Record<string, string>>; default?: string }>>;
  /**
   * The form lets the customer attach documents for the reviewer (the request's `documents`,
   * uploaded as files first), saying which ones help, e.g. a bank letter for an IBAN payee.
   */
  documents?: { label?: string; help: string };
  /** The heading over the type's own fields (default "Evidence"), e.g. "The mandate". */
  evidenceTitle?: string;
  /** What choosing each level means for this type, when the general sentence would mislead. */
  levelHelp?: Readonly<Partial<Record<EvidenceLevel, string>>>;
  /** The type's own field that sets when the record ends (e.g. a mandate's `valid_until`): the form asks for it, not `expires_at`. */
  expiresWith?: string;
  /**
   * The record is about a wallet that signs a wallet challenge requested with this claim type
   * (`challenge.kind` "wallet"): the form connects the browser wallet, requests the challenge,
   * has the wallet sign its message, and fills `subject` (the wallet's address),
   * `evidence.challenge_id` and `evidence.signature` itself instead of asking for them.
   */
  walletChallenge?: true;
};

/**
 * A submission as `review.atApproval` sees it: private evidence included (never shown), with the
 * records it rests on (record_links), by role.
 */
export type ApprovalInput = {
  subject: string; evidence: Record<string, unknown>; privateEvidence: Record<string, unknown>;
  environment: "sandbox" | "live"; linked: ReadonlyMap<string, LinkTarget>;
};
/**
 * What asking at approval found: every part still holds (the evidence to issue with, and what
 * was checked, in words the console shows); or the reason approval is refused now; or a source
 * that could not answer what the record would be issued with (a snapshot), and the evidence to
 * issue with if the reviewer goes ahead without it.
 */
export type ApprovalAnswer =
  | { kind: "ok"; evidence: Record<string, unknown>; checked: readonly string[] }
  | { kind: "refused"; reason: string }
  | { kind: "unreachable"; reason: string; evidenceWithout: Record<string, unknown> };

/**
 * What a type adds to the public view: built from its public evidence, the standing of the
 * records it links to, the linked records themselves (their public evidence: never shown as
 * such) and the speaking account's profile — a view already depends on its account and its
 * links (`dependsOn`), so a field built from them is dropped from the cache when they change.
 */
export type PublicFieldsInput = {
  evidence: Record<string, unknown>;
  links: readonly LinkedStanding[];
  extras: unknown;
  /** Absent (a caller with no account at hand): nothing the account vouches for is taken as verified. */
  account?: AccountProfile;
  linked?: readonly LinkedTarget[];
};

/**
 * A value the public lookup finds a record by: its kind, the value as the record holds it
 * (the pipeline writes it in the kind's normal form) and the field it is in, which the
 * lookup names as `matched_field`.
 */
export type RecordValue = { kind: LookupKind; value: string; field: string };
/** A name or LEI an issued record speaks for (an entity's legal name, a listing's operator): what impersonation watches compare with (lib/watches). */
export type NamedValue = { kind: "name" | "lei"; value: string; field: string };

/** What `view.viewExtras` loads for one record: data for `view.publicFields`, and what a cached view of it depends on. */
export type ViewExtras = { data: unknown; dependsOn: readonly string[] };
/** A record `view.viewExtras` loads for: `id` null for one being created (nothing rests on it yet). */
export type ViewExtrasInput = { id: string | null; accountId: string; evidence: Record<string, unknown> };

/**
 * A fact a check of this type establishes, and how (CONTRACT "What was checked"): by asking a
 * source (`source` names it, e.g. "DNS TXT _prs-challenge.example.com") or by verifying a
 * signature. A reviewer's approval turns each into a `reviewer` check.
 */
export type CheckedFact = { fact: string; by: "source" | "signature"; source?: string };

/** A challenge the service issues (lib/challenges) that a request of this type answers. */
export type ClaimChallenge = {
  /**
   * `domain`: a DNS TXT challenge (POST /api/v1/domain-challenges); `wallet`: a message to sign
   * (POST /api/v1/wallet-challenges), whose `claim_type` may name any type of this kind (the
   * message says which, and the check refuses a challenge asked for another type).
   */
  kind: "domain" | "wallet";
  /**
   * The type a challenge of this kind is for when the request names none, and the one the
   * portal's Proofs page creates once its challenge is met (one per kind); it says how
   * (`proofRequest`: the record's subject, claim and evidence).
   */
  primary?: {
    proofRequest(proof: { subject: string; challengeId: string; signature?: string }): { subject: string; claim: string; evidence: Record<string, unknown> };
  };
};

/**
 * Why a record cannot be the principal of a record of this type (spec 2.3 rule 4), or null:
 * judged when the request names it, when the owner changes it, and to list the candidates.
 */
export type PrincipalRule = (target: LinkTarget | undefined, environment: string, now?: number) => FieldError | null;

/**
 * What a request of the type is: the fields it takes beside the base ones, what is refused
 * before parsing, the records it names, what it must never store, the levels it may ask for,
 * how the portal's form offers it, and its own validation.
 */
export type ClaimRequestSpec = {
  /**
   * Top-level request fields this type takes beside the base ones (e.g. an agent's
   * `agent_id`, `act`, `scope`): the request is parsed with them, strictly, so other types
   * refuse them (422 unknown_field).
   */
  requestFields?: Readonly<Record<string, ZodType>>;
  /**
   * A look at the raw body before it is parsed, for what must be refused with its own code
   * and never echoed (e.g. secret material): a FieldError, or null.
   */
  screen?(raw: Record<string, unknown>): FieldError | null;
  /**
   * The records a request names, by role (`of`: e.g. its principal's company record), loaded into
   * `ctx.linked`; and what a role means once issued (`means`: parts, a renewal, a principal the
   * owner may change; any other role is a reference).
   */
  links?: { of(input: RecordCreateInput): readonly RecordLinkRequest[]; means?: Readonly<Record<string, LinkMeaning>> };
  /**
   * Evidence fields that carry secrets (an API secret, a password): the check may use them;
   * the pipeline removes them, and their values, from everything it stores (strip-secrets.ts).
   */
  secrets?: readonly string[];
  /**
   * The evidence levels a record of this type can be issued at; `validate` refuses any other
   * (field-rules.ts `onlyLevels`), and the portal's form offers these.
   */
  levels?: readonly EvidenceLevel[];
  /** How the portal's "New record" form offers it; absent: by its type name, with fields from its evidence schema. */
  form?: ClaimForm;
  /** Type-specific validation of an already shape-checked request; first problem or null. */
  validate(input: RecordCreateInput): FieldError | null;
};

/** How the type's check (`ClaimModule.check`) runs, and how it is run again for a submission that waits. */
export type ClaimChecking = {
  /** The check does no I/O (no DNS, RPC or register): the create can be written in one statement. */
  offline?: boolean;
  /**
   * For claim types with a connector: check a submission that went to review because the
   * source could not be reached, from the evidence stored with it. Absent: only a human decides.
   * `record` is the submission's (its account's records are the only ones it may rest on);
   * `db` reads them (e.g. a payment's agent record).
   */
  recheck?(evidence: Record<string, unknown>, now: Date, record: { subject: string; accountId: string }, db: DbOrTx): Promise<RecheckOutcome>;
  /**
   * The customer refreshes a pending submission's evidence without a new submission
   * (POST /api/v1/records/{id}/evidence, `{evidence: {…}}`): the check run again on what is
   * sent (e.g. a newly signed challenge), answering the evidence the submission waits with,
   * and a hook run in the transaction that stores it (to use up a challenge); or the problem.
   */
  refresh?(
    submission: { subject: string; evidence: Record<string, unknown> }, sent: Record<string, unknown>, ctx: ClaimContext,
  ): Promise<{ evidence: Record<string, unknown>; commit?: CommitHook } | { error: FieldError }>;
};

/** How a submission of the type that went to review is decided, and what its issue does to the records it names. */
export type ClaimReview = {
  checklist?: readonly ChecklistItem[] | ((evidence: Record<string, unknown>) => readonly ChecklistItem[]);
  beforeApprove?(submission: { createdAt: Date; evidence: Record<string, unknown> }, now: Date): string | null;
  atApproval?(submission: ApprovalInput, now: Date, o: { shown: boolean }): Promise<ApprovalAnswer>;
  awaitsSource?(evidence: Record<string, unknown>): boolean;
  /**
   * A submission of this type still pending `afterMs` after it was made is rejected by the
   * sweep with `reason` (e.g. it kept no credentials to be checked again with).
   */
  pendingExpiry?: { afterMs: number; reason: string };
};

/** How long an issued record of the type stands, and what keeps it standing. */
export type ClaimPolicy = {
  /** How issued records are re-checked: periodically (`monitor`) or when their validity ends (`renewal`). Absent: never; valid DEFAULT_RECORD_VALIDITY_DAYS by default, or as asked. */
  recheck?: RecheckPolicy;
  /**
   * A part of an issued record that rests on its account rather than on a linked record (e.g.
   * a listing's operator, checked as the account's verified organisation): why it no longer
   * stands now, or null while it does. A record with such a part is not verified, and no
   * lookup or /check counts it (lib/trust/decide.ts).
   */
  accountPartLapsed?(evidence: Record<string, unknown>, account: AccountProfile): string | null;
};

/** What an issued record of the type shows and stands for: its public view, the lookup's values, the trust module's facts. */
export type ClaimView = {
  /**
   * Fields this type adds to its record's public view — the signed status, the certificate
   * and the record object alike (lib/public/record/public-view.ts). Keys must not clash with the
   * base fields.
   */
  publicFields?(input: PublicFieldsInput): Record<string, unknown>;
  /**
   * What the public view needs beyond the record and its links (e.g. the standing of the
   * mandate key that signed it), for many records at once; `dependsOn` names the keys whose
   * change drops a cached view (status-cache.ts), e.g. `mandate-key:<account id>:<key id>`.
   */
  viewExtras?(db: DbOrTx, records: readonly ViewExtrasInput[]): Promise<ViewExtras[]>;
  /**
   * The values the public lookup (GET /api/v1/lookup) finds this type's records by — a
   * domain as a website, an address as a wallet, a listing's link, payee and licence — from
   * the subject and the public evidence. The pipeline normalises them and writes them with
   * the record (lib/record-model/record-values.ts), for live public records only; a value that is
   * not one of its kind is left out. Absent: no lookup finds the type's records.
   */
  lookupValues?(subject: string, evidence: Record<string, unknown>): readonly RecordValue[];
  /**
   * The names and LEIs a record of this type speaks for, from its subject and public evidence
   * (e.g. a company's legal name and LEI, a listing's operator): what impersonation watches of
   * kind `name` and `lei` compare with (lib/watches/record-watch-values.ts). Its domains, IBANs
   * and wallets come from `lookupValues`. Absent: none.
   */
  namedValues?(subject: string, evidence: Record<string, unknown>): readonly NamedValue[];
  /**
   * The facts an issued record of this type at a checked level stands for, from its subject
   * and public evidence (lib/trust/checks.ts). Absent: one generic `claim` fact.
   */
  facts?(subject: string, evidence: Record<string, unknown>): readonly CheckedFact[];
};

/**
 * What other parts of the service ask the registry for by capability rather than by type
 * name: the roles a type's records can fill elsewhere.
 */
export type ClaimCapabilities = {
  /**
   * What a checked record of this type proves, for the rest of the service: `legal_identity` —
   * its subject's legal identity (its public evidence names the entity's `lei`): /check looks a
   * company up among these, and an agent's principal is one of them; `account_domain` — an
   * active live record proves its subject is a domain of its account, shown as a verified domain
   * wherever that account speaks (certificates, signed status).
   */
  proves?: "legal_identity" | "account_domain";
};

/**
 * A claim type's definition, grouped by who asks: `request` (what a request of the type is),
 * `check` and `checking` (the check, how it runs, and running it again), `review` (the reviewer's side),
 * `view` (what an issued record shows and stands for), `policy` (how long and on what it
 * stands), `challenge` (the service-issued challenge it answers) and `capabilities` (the roles its
 * records can fill elsewhere). Every group but `request` is optional.
 */
export interface ClaimModule {
  /** The claim_type this module checks (the registry's key). */
  type: string;
  docs: ClaimDocs;
  request: ClaimRequestSpec;
  check(input: RecordCreateInput, ctx: ClaimContext): Promise<CheckOutcome>;
  checking?: ClaimChecking;
  /**
   * Review policy. `checklist`: what a reviewer ticks before approving (absent: the generic
   * source checklist), fixed or from the submission's public evidence (e.g. per subtype).
   * `beforeApprove`: a precondition checked at approval (e.g. evidence younger than 24 h); a
   * string is the reason approval is refused, and nothing changes — the console shows it
   * and offers no approval. `atApproval`: what is asked at the moment of approval, outside
   * the transaction — first what the service checks again (e.g. the DNS TXT record of the
   * domain record a submission rests on: refused with the reason when a part no longer holds or
   * cannot be asked), then what the record is issued with (e.g. a public snapshot: when its
   * source cannot answer, the reviewer may approve with `evidenceWithout` instead). The console
   * asks it when it shows the submission (`shown`: the checks only, nothing taken for issue),
   * and approval asks it again. `awaitsSource`: whether the
   * submission still waits on a source the service could not reach (e.g. an unchecked wallet
   * signature) — the console offers "Re-run automatic check" (`checking.recheck`) only then;
   * absent: always, for a type with `checking.recheck`.
   */
  review?: ClaimReview;
  view?: ClaimView;
  policy?: ClaimPolicy;
  /** A request of this type answers a challenge the service issued (lib/challenges asks the registry which types take one). */
  challenge?: ClaimChallenge;
  capabilities?: ClaimCapabilities;
}

/**
 * A create request once validated: its parsed input and the module its claim_type resolved to,
 * carried together through the pipeline (check, assemble, store) so no step asks the registry again.
 */
export type ClaimRequest = { input: RecordCreateInput; module: ClaimModule };

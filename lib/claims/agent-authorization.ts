import { z } from "zod";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import { loadPaymentLedgers, type PaymentLedger } from "@/lib/agents/payment-ledger";
import { sameLegalName } from "@/lib/connectors/legal-name";
import { getEnv } from "@/lib/env";
import type { FieldError } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/validation";
import { MANDATE_KEY_ID_RE } from "@/lib/ids";
import { agentWalletRole, isAgentWalletRole } from "@/lib/agents/agent-link";
import {
  mandateKeyDependency, mandateKeyRefKey, mandateKeyStandings, publicMandateKeyUrl, verifyMandate, type MandateKeyRef,
  type MandateKeyStanding,
} from "@/lib/mandates/verify-mandate";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import type { LinkedStanding, LinkedTarget, LinkTarget } from "@/lib/record-model/link-types";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText, recordIdSchema, type EvidenceLevel, type RecordCreateInput } from "@/lib/record-model/schemas";
import { companyIdentity } from "./company-identity";
import { refuseSourceFields } from "./field-rules";
import { findSecretMaterial } from "./secret-material";
import type { ClaimModule, ViewExtrasInput } from "./types";

const LEVELS: readonly EvidenceLevel[] = ["participant_attested", "source_verified"];
const PRINCIPAL_ROLE = "principal_record";
/** At most this many agent wallets; their link roles are agent_wallet_0 … agent_wallet_9 (one digit: they sort in order). */
const MAX_AGENT_WALLETS = 10;
const MAX_VALIDITY_MS = 5 * 366 * 86_400_000;

const text = (max: number, what: string) => z.string().trim().min(1).max(max).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).describe(what);

/** The top-level fields of spec 2.3 (CONTRACT "agent_authorization"); refused on every other type. */
export const agentFields = {
  principal: text(200, "Display name of the principal the agent acts for; the account is always the API key's."),
  agent_id: text(200, "The agent's identifier, as the principal names it."),
  act: text(200, "What the agent may do, e.g. 'pay_invoices'."),
  scope: z
    .strictObject({
      asset: text(64, "Asset, e.g. USDC.").optional(),
      max_amount: z.string().max(78).regex(/^(0|[1-9]\d*)(\.\d+)?$/, "must be a decimal string such as \"250.00\".")
        .describe("Upper bound per the mandate, as a decimal string (not enforced: amounts are never checked).").optional(),
      network: text(64, "Network, e.g. base.").optional(),
    })
    .optional()
    .describe("The limits the mandate states."),
  session_id: text(200, "The session the mandate is for.").optional(),
  valid_until: z.iso.datetime({ offset: true }).optional().describe("End of the mandate; becomes the record's expires_at."),
  mandate_hash: z.string().regex(/^(sha256|sha3-256):[0-9a-f]{64}$/, "must be 'sha256:' or 'sha3-256:' followed by 64 lower-case hex digits.")
    .optional().describe("Hash of the instruction the principal gave (never the instruction's secrets)."),
  mandate_signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, "must be base64url (no padding) of a 64-byte Ed25519 signature.")
    .optional().describe("Ed25519 over the RFC 8785 canonical JSON of {account_id, agent_id, act, scope, session_id, valid_until, mandate_hash}."),
  principal_key_id: z.string().regex(MANDATE_KEY_ID_RE, "must be the key_id of a registered mandate key.").optional()
    .describe("The mandate key (POST /api/v1/mandate-keys) that made mandate_signature."),
  principal_record_id: recordIdSchema.optional()
    .describe("A public, active company_identity record of this account (source_verified or evidence_verified) the principal is."),
  agent_wallets: z.array(recordIdSchema).min(1).max(MAX_AGENT_WALLETS).optional()
    .describe(
      `The agent's wallets: ids of active wallet_ownership records of this account and environment (at most ${MAX_AGENT_WALLETS}). ` +
      "A payment citing the agent (evm_transaction evidence.agent_record) is attributed to it (`agent_link.attribution: agent_wallet`) " +
      "only when sent from one of them, and only such payments count in its spend.",
    ),
};
const agentRequest = z.object(agentFields);
type AgentRequest = z.output<typeof agentRequest>;

export const agentFieldsSchema = z.strictObject(agentFields).meta({
  id: "AgentAuthorizationFields",
  description: "agent_authorization's own top-level request fields, sent beside subject, claim_type and claim.",
});

const SIGNED = ["mandate_hash", "mandate_signature", "principal_key_id"] as const;

function levelProblem(input: RecordCreateInput, f: AgentRequest): FieldError | null {
  const signed = SIGNED.filter((k) => f[k] !== undefined);
  const wanted = input.evidence_level;
  if (wanted === "evidence_verified") {
    return { code: "evidence_level_not_allowed", param: "evidence_level", message: "An agent authorization is participant_attested, or source_verified with a signed mandate; no reviewer raises it." };
  }
  // A hash alone is the principal's word about the instruction; a signature or a key id means a signed mandate.
  const signing = f.mandate_signature !== undefined || f.principal_key_id !== undefined;
  if (signing && signed.length < SIGNED.length) {
    const missing = SIGNED.find((k) => f[k] === undefined)!;
    return { code: "mandate_signature_required", param: missing, message: `A signed mandate needs mandate_hash, mandate_signature and principal_key_id together; '${missing}' is missing.` };
  }
  if (wanted === "source_verified" && !signing) {
    return { code: "mandate_signature_required", param: "mandate_signature", message: "source_verified needs the principal's signed mandate: mandate_hash, mandate_signature and principal_key_id." };
  }
  return null;
}

/**
 * Why the i-th of `agent_wallets` cannot be the agent's wallet, or null: it must be an active
 * wallet_ownership record of this account (another account's is not found) and environment.
 */
export function agentWalletProblem(target: LinkTarget | undefined, i: number, environment: string, now = Date.now()): FieldError | null {
  const invalid = (why: string): FieldError => ({ code: "linked_record_invalid", param: `agent_wallets[${i}]`, message: `agent_wallets[${i}]: ${why}` });
  if (!target) return invalid("no record of this account has that id.");
  if (target.claimType !== "wallet_ownership") return invalid(`an agent wallet must be a wallet_ownership record, not ${target.claimType}.`);
  if (target.environment !== environment) return invalid(`the wallet record is a ${target.environment} record; this agent is ${environment}.`);
  const status = effectiveStatus(target, now).status;
  if (status !== "active") return invalid(`the wallet record is ${status}; it must be active.`);
  return null;
}

/** Why a record cannot be this agent's principal (spec 2.3 rule 4), or null. */
export function principalProblem(target: LinkTarget | undefined, agentEnvironment: string, now = Date.now()): FieldError | null {
  const invalid = (why: string): FieldError => ({ code: "principal_record_invalid", param: "principal_record_id", message: why });
  if (!target) return invalid("No record of this account has that id.");
  if (target.claimType !== companyIdentity.type) return invalid(`The principal record must be a ${companyIdentity.type} record, not ${target.claimType}.`);
  if (target.visibility !== "public") return invalid("The principal record must be public.");
  if (target.evidenceLevel === "participant_attested") return invalid("The principal record must have been checked (source_verified or evidence_verified).");
  if (effectiveStatus(target, now).status !== "active") return invalid(`The principal record is ${effectiveStatus(target, now).status}; it must be active.`);
  if (agentEnvironment === "live" && target.environment !== "live") return invalid("A live agent cannot rest on a sandbox record.");
  return null;
}

/**
 * What the agent's link to its principal is worth now (CONTRACT "What a public yes requires" →
 * Agents): `unlinked` — no company record; `lapsed` — the linked record is no longer active;
 * `verified` — it is active, it is the company_identity of this account's own verified
 * organisation (same LEI, organisation status verified) and `principal` is that
 * organisation's legal name; `unverified` — active, but any of those fails (another
 * company's LEI, an account that is no verified organisation, another principal name).
 */
export const PRINCIPAL_STANDINGS = ["verified", "unverified", "lapsed", "unlinked"] as const;
export type PrincipalStanding = (typeof PRINCIPAL_STANDINGS)[number];

export function principalStanding(
  principal: string | null, link: LinkedStanding | undefined, target: Pick<LinkTarget, "evidencePublic"> | undefined, account: AccountProfile | undefined,
): PrincipalStanding {
  if (!link) return "unlinked";
  if (link.standing !== "active") return "lapsed";
  const org = account?.organisation;
  if (!org || org.status !== "verified" || !org.lei || !target) return "unverified";
  const lei = typeof target.evidencePublic.lei === "string" ? target.evidencePublic.lei.trim().toUpperCase() : null;
  if (lei !== org.lei.toUpperCase()) return "unverified";
  return principal !== null && sameLegalName(principal, org.legal_name) ? "verified" : "unverified";
}

/** `keyUrl`: the public read-back of the issuing account's key of that id (/keys/{account_id}/{key_id}). */
type Extras = { key: MandateKeyStanding | null; keyUrl: string | null; payments: PaymentLedger | null };
const str = (v: unknown) => (typeof v === "string" ? v : null);
const obj = (v: unknown): Record<string, unknown> | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v } : null);
const keyOf = (extras: unknown): Extras["key"] => {
  const k = obj(obj(extras)?.key);
  return k && (k.status === "active" || k.status === "revoked") && (k.environment === "sandbox" || k.environment === "live")
    ? { status: k.status, environment: k.environment } : null;
};
const keyUrlOf = (extras: unknown): string | null => str(obj(extras)?.keyUrl);
/**
 * The agent's wallets as the public sees them, in the order named: the address and record of
 * each while its wallet record is public and issued (a private one is counted, never named),
 * and its standing now.
 */
function agentWallets(links: readonly LinkedStanding[], linked: readonly LinkedTarget[] | undefined) {
  return links
    .filter((l) => isAgentWalletRole(l.role))
    .map((l) => {
      const target = linked?.find((t) => t.role === l.role)?.target;
      const shown = l.record !== null && target !== undefined;
      return {
        verification_id: shown ? l.record!.verification_id : null,
        address: shown ? target!.subject : null,
        network: shown ? str(target!.evidencePublic.network) : null,
        standing: l.standing,
      };
    });
}

/** The spend ledger `view.viewExtras` loaded; null where none was (a view of a past instant). */
const paymentsOf = (extras: unknown): PaymentLedger | null => (obj(extras)?.payments as PaymentLedger | undefined) ?? null;

/**
 * agent_authorization: that a program (the agent) was allowed to act for a principal, within
 * stated limits, for a session — the principal's own statement (participant_attested), or
 * checked against the principal's Ed25519 signature over the mandate with one of its
 * registered mandate keys (source_verified). The agent may rest on the principal's checked
 * company_identity record; the status says whether that record still stands.
 */
export const agentAuthorization: ClaimModule = {
  type: "agent_authorization",
  docs: {
    describe:
      "`agent_authorization`: the fields of spec 2.3 as top-level request fields (schema AgentAuthorizationFields; no `evidence`); " +
      "participant_attested without a mandate signature, source_verified when mandate_signature verifies (strict Ed25519, RFC 8785) with " +
      "an active mandate key of the account registered in the same environment (a sandbox key never signs a live mandate: 422 " +
      "mandate_key_invalid); `valid_until` becomes `expires_at`; `agent_wallets` names the agent's wallets (active wallet_ownership " +
      "records, same account and environment; else 422 linked_record_invalid naming the index), shown under `agent.wallets`: only " +
      "payments sent from them count in `agent.payments`; `principal_record_id` links a checked company_identity " +
      "record whose standing the signed status shows under `agent.principal_standing`: verified (active, the LEI of this account's own verified " +
      "organisation, and `principal` is its legal name), unverified (active, but not that), lapsed or unlinked. Secret material is refused.",
    fieldsSchema: agentFieldsSchema,
    errors: [
      "unknown_field", "field_not_allowed", "evidence_level_not_allowed", "mandate_signature_required", "mandate_signature_invalid",
      "mandate_key_invalid", "principal_record_invalid", "linked_record_invalid", "secret_material_refused",
    ],
    example: {
      summary: "An agent's mandate, signed by the principal's mandate key (201)",
      value: {
        subject: "invoice-agent-7", claim_type: "agent_authorization", claim: "invoice-agent-7 may pay approved invoices for Acme Trading Ltd.",
        visibility: "public", principal: "Acme Trading Ltd", agent_id: "invoice-agent-7", act: "pay_invoices",
        scope: { asset: "USDC", max_amount: "250.00", network: "base" }, session_id: "sess-2026-11-23", valid_until: "2026-12-31T23:59:59Z",
        mandate_hash: "sha256:9f2c4e0d2a1b7c3e5f60718293a4b5c6d7e8f90123456789abcdef0123456789", mandate_signature: "Uq4gq1Lk9nFQf0a2Xw3mZb7sT8cVhJ5yR6pD0eK1oN2iG4lM7uB9tW3xY8zA1sC5dE6fH7jK8lP9qR0sT1uV2w",
        principal_key_id: "acme-treasury-2026",
      },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "An AI agent's mandate",
      summary:
        "That an agent may act for your company within stated limits. Your own statement, or checked against your mandate key's " +
        "signature when you paste a mandate signed outside the browser.",
      evidenceTitle: "The mandate",
      expiresWith: "valid_until",
      levelHelp: {
        participant_attested: "Your own statement of the mandate: signed by the service as you made it, no mandate signature checked. The certificate says so.",
        source_verified:
          "Checked against your mandate key: paste the mandate hash, the mandate signature and the key id above. The signature is made " +
          "outside the browser with your private key, which never touches this service; every field it covers must be exactly as signed.",
      },
      fields: {
        subject: { label: "Subject", help: "Whom the record is about: the agent, as the certificate names it (e.g. invoice-agent-7).", placeholder: "invoice-agent-7" },
        claim: { help: "What the agent may do, in plain words (e.g. “invoice-agent-7 may pay approved invoices for Acme Trading Ltd.”). It appears on the certificate as written." },
        principal: { label: "Principal", help: "The company the agent acts for, as shown on the certificate. Link its checked company record to show it is that company.", placeholder: "Acme Trading Ltd" },
        agent_id: { label: "Agent id", help: "The agent's identifier, as you name it.", placeholder: "invoice-agent-7" },
        act: { label: "Act", help: "What the agent may do, as one short name.", placeholder: "pay_invoices" },
        "scope.asset": { label: "Asset", help: "The asset the agent may pay in.", placeholder: "USDC" },
        "scope.max_amount": { label: "Maximum amount", help: "A decimal number such as 250.00. Stated, not enforced: the service never checks amounts.", placeholder: "250.00" },
        "scope.network": { label: "Network", help: "The network the agent may pay on.", placeholder: "base" },
        session_id: { label: "Session id", help: "The session the mandate is for, if it names one." },
        valid_until: {
          label: "Valid until (UTC)", asText: true, placeholder: "2026-12-31T23:59:59Z",
          help: "When the mandate ends; the record expires then. A timestamp with its zone, such as 2026-12-31T23:59:59Z — for a signed mandate exactly as signed. Empty: the default validity.",
        },
        mandate_hash: { label: "Mandate hash", help: "For a signed mandate: the hash of your instruction, 'sha256:' and 64 hex digits. Never the instruction itself.", placeholder: "sha256:…" },
        mandate_signature: { label: "Mandate signature", help: "For a signed mandate: the Ed25519 signature (base64url) your mandate key made over the mandate, outside the browser. See the API guide." },
        principal_key_id: { label: "Mandate key id", help: "For a signed mandate: the id of the mandate key that signed it (Developers → Mandate keys)." },
        agent_wallets: {
          label: "Agent's wallets",
          help: "Optional: the ids (PRS-…) of your active Wallet ownership records for the wallets the agent pays from, one per line. Only payments sent from them count as the agent's.",
          placeholder: "PRS-…",
        },
        principal_record_id: {
          label: "Principal's company record",
          help: "Optional: the id of your public, active, checked company identity record (PRS-…). You can link or change it later on the record's page.",
          placeholder: "PRS-…",
        },
      },
    },
    requestFields: agentFields,
    screen(raw) {
      const { subject: _s, claim: _c, ...rest } = raw;
      return findSecretMaterial(rest);
    },
    validate(input) {
      if (input.evidence && Object.keys(input.evidence).length > 0) {
        const [k] = Object.keys(input.evidence);
        return { code: "unknown_field", param: `evidence.${k}`, message: "agent_authorization takes its fields at the top level, not in evidence." };
      }
      if (input.expires_at !== undefined) {
        return { code: "field_not_allowed", param: "expires_at", message: "An agent authorization ends when its mandate does: send valid_until." };
      }
      const parsed = agentRequest.safeParse(input);
      if (!parsed.success) return fieldErrors(parsed.error, input, "")[0]!;
      const f = parsed.data;
      if (f.valid_until !== undefined) {
        const at = Date.parse(f.valid_until);
        const min = getEnv().MIN_VALIDITY_SECONDS;
        if (at <= Date.now() + min * 1000 || at > Date.now() + MAX_VALIDITY_MS) {
          return { code: "invalid_value", param: "valid_until", message: `'valid_until' must lie between ${min} seconds and five years from now.` };
        }
      }
      const twice = (f.agent_wallets ?? []).findIndex((id, i, all) => all.indexOf(id) !== i);
      if (twice >= 0) return { code: "invalid_value", param: `agent_wallets[${twice}]`, message: `agent_wallets[${twice}] names the same wallet record again.` };
      return refuseSourceFields(input, "agent_authorization") ?? levelProblem(input, f);
    },
    links: {
      of: (input) => {
        const f = agentRequest.safeParse(input).data;
        return [
          ...(f?.principal_record_id ? [{ role: PRINCIPAL_ROLE, targetId: f.principal_record_id }] : []),
          ...(f?.agent_wallets ?? []).map((targetId, i) => ({ role: agentWalletRole(i), targetId })),
        ];
      },
      /** The principal may be linked, changed or unlinked by the owner after issue; the wallets are references. */
      means: { [PRINCIPAL_ROLE]: { kind: "principal", problem: principalProblem } },
    },
  },
  async check(input, ctx) {
    const f = agentRequest.parse(input);
    if (f.principal_record_id !== undefined) {
      const problem = principalProblem(ctx.linked.get(PRINCIPAL_ROLE), ctx.auth.environment, ctx.now.getTime());
      if (problem) return { kind: "fail", error: problem };
    }
    for (const [i] of (f.agent_wallets ?? []).entries()) {
      const problem = agentWalletProblem(ctx.linked.get(agentWalletRole(i)), i, ctx.auth.environment, ctx.now.getTime());
      if (problem) return { kind: "fail", error: problem };
    }
    let level: EvidenceLevel = "participant_attested";
    if (f.mandate_signature !== undefined && f.principal_key_id !== undefined) {
      const refused = await verifyMandate(ctx.db, ctx.auth, f.principal_key_id, f.mandate_signature, f);
      if (refused) return { kind: "fail", error: refused };
      // Checked; issued at source_verified unless the request asked for less.
      level = input.evidence_level === "participant_attested" ? "participant_attested" : "source_verified";
    }
    const { principal_record_id: _link, ...signedFields } = f;
    const publicEvidence = Object.fromEntries(Object.entries(signedFields).filter(([, v]) => v !== undefined));
    return { kind: "issue", evidenceLevel: level, publicEvidence, expiresAt: f.valid_until ? new Date(f.valid_until) : undefined };
  },
  view: {
    /** The principal the agent says it acts for: an agent claiming a watched company's name fires its name watch. */
    namedValues: (_subject, evidence) => (typeof evidence.principal === "string" && evidence.principal.trim()
      ? [{ kind: "name", value: evidence.principal, field: "evidence.principal" }]
      : []),
    /** A signed mandate: the principal's signature, verified with its mandate key. An unsigned one is the account's statement. */
    facts: (_subject, evidence) => (typeof evidence.mandate_signature === "string"
      ? [{ fact: "mandate_signature", by: "signature", source: `mandate key ${str(evidence.principal_key_id) ?? ""}`.trim() }]
      : []),
    async viewExtras(db, recs) {
      // A record's mandate key is the issuing account's key of that id (key ids are unique per account only).
      const refOf = (r: ViewExtrasInput): MandateKeyRef | null => {
        const keyId = str(r.evidence.principal_key_id);
        return keyId ? { accountId: r.accountId, keyId } : null;
      };
      const [standings, ledgers] = await Promise.all([
        mandateKeyStandings(db, recs.flatMap((r) => refOf(r) ?? [])),
        loadPaymentLedgers(db, recs.flatMap((r) => (r.id ? [r.id] : []))),
      ]);
      return recs.map((r) => {
        const ref = refOf(r);
        const ledger = r.id ? ledgers.get(r.id) : undefined;
        return {
          data: {
            key: ref ? (standings.get(mandateKeyRefKey(ref)) ?? null) : null,
            keyUrl: ref ? publicMandateKeyUrl(ref) : null,
            payments: ledger?.ledger ?? { count: 0, totals: [] },
          } satisfies Extras,
          // The payments citing the agent: a change of any drops the cached view (a new one tells the agent itself).
          dependsOn: [...(ref ? [mandateKeyDependency(ref)] : []), ...(ledger?.citing ?? [])],
        };
      });
    },
    publicFields({ evidence, links, extras, account, linked }) {
      const link = links.find((l) => l.role === PRINCIPAL_ROLE);
      const target = linked?.find((l) => l.role === PRINCIPAL_ROLE)?.target;
      const keyId = str(evidence.principal_key_id);
      const key = keyOf(extras);
      return {
        agent: {
          principal: str(evidence.principal), agent_id: str(evidence.agent_id), act: str(evidence.act),
          scope: obj(evidence.scope), session_id: str(evidence.session_id),
          valid_until: str(evidence.valid_until), mandate_hash: str(evidence.mandate_hash),
          key: keyId ? { key_id: keyId, status: key?.status ?? null, environment: key?.environment ?? null, url: keyUrlOf(extras) } : null,
          principal_standing: principalStanding(str(evidence.principal), link, target, account),
          principal_record: link?.record ? { verification_id: link.record.verification_id, subject: link.record.subject, certificate_url: link.record.certificate_url } : null,
          wallets: agentWallets(links, linked),
          payments: paymentsOf(extras),
        },
      };
    },
  },
};

import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { z } from "zod";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import { sameLegalName } from "@/lib/connectors/legal-name";
import type { FieldError } from "@/lib/http/errors";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { familyOf, normalizeAddress, sameAddress, WALLET_NETWORKS } from "@/lib/proofs/wallet-address";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import type { LinkTarget } from "@/lib/record-model/link-types";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText, recordIdSchema, type EvidenceLevel } from "@/lib/record-model/schemas";
import { companyIdentity } from "./company-identity";
import { domainOwnership } from "./domain-ownership";
import { evidenceRules } from "./field-rules";
import type { CheckedFact, CheckOutcome, ClaimContext, ClaimModule } from "./types";
import { walletOwnership } from "./wallet-ownership";

const LEVELS: readonly EvidenceLevel[] = ["source_verified", "evidence_verified"];
/** Every text of a listing is shown publicly: no control, bidi or zero-width characters (CONTRACT "What still stands"). */
const short = (max: number) => z.string().trim().min(1).max(max).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN);

export const listingEvidence = z
  .strictObject({
    operator: short(200).describe("Who runs the listing and is paid: the operator's name."),
    listing_url: z.url({ protocol: /^https?$/ }).max(2000).describe("The listing's address (marketplace page, booking page)."),
    domain: short(253).describe("The operator's own website domain."),
    licence: z.strictObject({ authority: short(200), number: short(100) }).optional().describe("A licence the operator holds, by authority and number."),
    payee: z
      .strictObject({
        type: z.enum(["iban", "wallet"]),
        value: short(100).describe("The IBAN, or the wallet address."),
        account_name: short(200).optional(),
        bank_name: short(200).optional(),
        network: z.enum(WALLET_NETWORKS).optional().describe("For a wallet payee: its network."),
      })
      .describe("Where payments for the listing go."),
    licence_record: recordIdSchema.optional().describe(
      "An active, reviewer-confirmed (evidence_verified) licence record of this account whose subject is the operator and whose public evidence " +
      "names the same licence (authority and number). A company_identity record is not a licence.",
    ),
    domain_record: recordIdSchema.optional().describe("An active domain_ownership record of this account for `domain`."),
    payee_record: recordIdSchema.optional().describe("An active wallet_ownership record of this account for the payee address; required for a wallet payee."),
  })
  .meta({ id: "VerifiedListingEvidence" });
type Listing = z.output<typeof listingEvidence>;

const PART_ROLES = ["domain_record", "payee_record", "licence_record"] as const;
type PartRole = (typeof PART_ROLES)[number];

const linkedInvalid = (param: string, why: string): FieldError => ({ code: "linked_record_invalid", param: `evidence.${param}`, message: why });

/** A linked part must be this account's, in this environment, active, of the right kind and about the same thing. */
function partProblem(role: PartRole, t: LinkTarget | undefined, e: Listing, ctx: ClaimContext): FieldError | null {
  if (!t) return linkedInvalid(role, "No record of this account has that id.");
  if (t.environment !== ctx.auth.environment) return linkedInvalid(role, `The ${role.replace("_", " ")} is a ${t.environment} record; a ${ctx.auth.environment} listing rests on ${ctx.auth.environment} records only.`);
  const status = effectiveStatus(t, ctx.now.getTime()).status;
  if (status !== "active") return linkedInvalid(role, `The ${role.replace("_", " ")} is ${status}; it must be active.`);
  if (role === "domain_record") {
    if (t.claimType !== domainOwnership.type) return linkedInvalid(role, `domain_record must be a ${domainOwnership.type} record.`);
    const d = normalizeDomain(e.domain);
    if (!("domain" in d) || t.subject !== d.domain) return linkedInvalid(role, `domain_record proves ${t.subject}, not ${e.domain}.`);
  }
  if (role === "payee_record") {
    if (t.claimType !== walletOwnership.type) return linkedInvalid(role, `payee_record must be a ${walletOwnership.type} record.`);
    const family = e.payee.network ? familyOf(e.payee.network) : "evm";
    if (!sameAddress(t.subject, e.payee.value, family)) return linkedInvalid(role, `payee_record proves ${t.subject}, not the payee address.`);
  }
  if (role === "licence_record") {
    if (t.claimType === companyIdentity.type) return linkedInvalid(role, `A ${companyIdentity.type} record proves a company's LEI, not a licence: licence_record must be a licence record a reviewer confirmed.`);
    if (t.evidenceLevel !== "evidence_verified") return linkedInvalid(role, "licence_record must be a licence record a reviewer confirmed (evidence_verified).");
    if (!sameLegalName(t.subject, e.operator)) return linkedInvalid(role, `licence_record is about "${t.subject}", not the operator "${e.operator}".`);
    if (!e.licence) return { code: "missing_field", param: "evidence.licence", message: "licence_record confirms a licence: send evidence.licence with its authority and number." };
    const held = licenceOf(t.evidencePublic);
    if (!held || !sameLicence(held, e.licence)) {
      return linkedInvalid(role, `licence_record does not confirm licence ${e.licence.number} of ${e.licence.authority}.`);
    }
  }
  return null;
}

type Licence = { authority: string; number: string };
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The licence a reviewer-confirmed record states in its public evidence (`licence {authority, number}`, or the two at the top), if any. */
export function licenceOf(evidence: Record<string, unknown>): Licence | null {
  const nested = typeof evidence.licence === "object" && evidence.licence !== null ? (evidence.licence as Record<string, unknown>) : null;
  const authority = str(nested?.authority) ?? str(evidence.authority) ?? str(evidence.licence_authority);
  const number = str(nested?.number) ?? str(evidence.number) ?? str(evidence.licence_number);
  return authority && number ? { authority, number } : null;
}

/** Same authority (as legal names are compared) and the same number, ignoring case and white space. */
const numberKey = (n: string) => n.normalize("NFKC").toUpperCase().replace(/\s+/gu, "");
export const sameLicence = (a: Licence, b: Licence) => sameLegalName(a.authority, b.authority) && numberKey(a.number) === numberKey(b.number);

/** The parts of a listing (CONTRACT "What a public yes requires" → verified_listing). */
export const LISTING_PARTS = ["operator", "listing_link", "domain", "payee", "licence"] as const;
export type ListingPart = (typeof LISTING_PARTS)[number];

/**
 * Whether the listing's host is its proved domain, exactly or with `www.` in front (a proof
 * of `x` covers `www.x`; no other subdomain, and a proof of `www.x` does not cover `x`).
 */
export function hostIsProved(listingUrl: string, provedDomain: string): boolean {
  let host: string;
  try {
    host = new URL(listingUrl).hostname;
  } catch {
    return false;
  }
  const d = normalizeDomain(host.replace(/\.$/, ""));
  if (!("domain" in d)) return false;
  return d.domain === provedDomain || d.domain === `www.${provedDomain}`;
}

/**
 * A listing speaks only for its own operator (issue 38, item 9): the operator must be this
 * account's verified organisation, under its legal name. Nobody else can make it so — not a
 * reviewer reading an uploaded document, not the account's self-declared name. Naming another
 * organisation (a marketplace listing on someone's behalf) would need that organisation's
 * consent through its own verified account, which the service does not offer yet (docs/decisions.md).
 */
function operatorProblem(e: Listing, profile: AccountProfile): FieldError | null {
  const org = profile.organisation?.status === "verified" && profile.name_verified ? profile.organisation : null;
  if (org && sameLegalName(org.legal_name, e.operator)) return null;
  const why = org
    ? `The operator "${e.operator}" is not this account's verified organisation "${org.legal_name}".`
    : "This account is not a verified organisation.";
  return {
    code: "operator_not_own_organisation",
    param: "evidence.operator",
    message: `${why} A listing's operator must be the listing account's own verified organisation, named by its legal name; ` +
      "a reviewer cannot confirm another operator from documents. Verify your organisation first (portal: Organisation), or let the operator list it from its own account.",
  };
}

/**
 * The parts no check of this service established, each with why, for the reviewer and the
 * customer (who can attach documents): the listing link unless its host is the proved domain;
 * the domain without its record; an IBAN payee; a licence without a reviewer-confirmed
 * licence record. The operator is never among them (operatorProblem); linked records were
 * already found valid (partProblem).
 */
function uncheckedParts(e: Listing, provedDomain: string | null): { part: ListingPart; why: string }[] {
  const out: { part: ListingPart; why: string }[] = [];
  if (!provedDomain || !hostIsProved(e.listing_url, provedDomain)) {
    out.push({
      part: "listing_link",
      why: `the listing link ${e.listing_url} (${provedDomain ? `its host is not the proved domain ${provedDomain}` : "no proved domain"}: the listing page must name the operator or show this record's token)`,
    });
  }
  if (!provedDomain) out.push({ part: "domain", why: `the domain ${e.domain} (no domain_ownership record: its owner)` });
  if (e.payee.type === "iban") out.push({ part: "payee", why: "the IBAN payee (a bank letter naming the operator as account holder)" });
  if (e.licence && !e.licence_record) {
    out.push({ part: "licence", why: `licence ${e.licence.number} (the authority's register: ${e.licence.authority})` });
  }
  return out;
}

/**
 * The public evidence is the request's evidence plus what the check added: `checked_at`, and
 * for a listing that waits for a reviewer `reviewed_parts` — the parts no check of the service
 * established, which the reviewer confirms.
 */
const COMPUTED = new Set(["checked_at", "reviewed_parts"]);
const stripComputed = (evidence: Record<string, unknown>) => Object.fromEntries(Object.entries(evidence).filter(([k]) => !COMPUTED.has(k)));
const reviewedParts = (evidence: Record<string, unknown>): readonly unknown[] => (Array.isArray(evidence.reviewed_parts) ? evidence.reviewed_parts : []);

const isPartRole = (r: string): r is PartRole => (PART_ROLES as readonly string[]).includes(r);

/**
 * verified_listing: that a listing (a marketplace or booking page) is run by the operator and
 * paid to the payee named — each part resting on a record of this service (the domain, the
 * wallet, the company or licence), or confirmed by a reviewer (an IBAN against a bank
 * letter, a licence number against the authority's register). The status says which part,
 * if any, no longer stands.
 */
export const verifiedListing: ClaimModule = {
  type: "verified_listing",
  docs: {
    describe:
      "`verified_listing`: `{operator, listing_url, domain, licence?, payee, licence_record?, domain_record?, payee_record?}` (schema " +
      "VerifiedListingEvidence); linked records must be active, of this account and environment and about the same operator, domain, " +
      "address and licence (422 linked_record_invalid). The operator must be this account's verified organisation's legal name " +
      "(422 operator_not_own_organisation otherwise: a reviewer never confirms another operator). 201 source_verified only when every part is checked: the listing link's host is the proved domain (or www. + it), the domain and a wallet " +
      "payee rest on their records, a licence on a reviewer-confirmed licence record with the same authority and number (company_identity " +
      "is not a licence). Any unchecked part (an IBAN payee — checked: 422 invalid_iban —, a licence given only by number, …) → 202 " +
      "pending_review naming each, evidence_verified once a reviewer confirms them. The signed status lists `parts` with their standing.",
    evidenceSchema: listingEvidence,
    errors: ["invalid_iban", "invalid_address", "invalid_domain", "linked_record_invalid", "operator_not_own_organisation", "field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "A listing of the account's own verified organisation, on its proved domain, paid to its proved wallet (201)",
      value: {
        subject: "Seaview Apartments", claim_type: "verified_listing", claim: "Seaview Apartments runs listing 4471 and is paid to its own wallet.",
        visibility: "public",
        evidence: {
          operator: "Seaview Apartments", listing_url: "https://www.seaview-apartments.com/listing/4471", domain: "seaview-apartments.com",
          payee: { type: "wallet", value: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", network: "ethereum" },
          domain_record: "PRS-9Q7K2M4N6P8R0T1V3W5X", payee_record: "PRS-1A2B3C4D5E6F7G8H9J0K",
        },
      },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "A listing, its operator and its payee",
      summary: "Bind a listing of your verified organisation to its website and payee, using your domain and wallet records; a reviewer confirms what no record of yours covers.",
      fields: {
        subject: { help: "What the listing is, as the certificate names it (e.g. the property or the shop).", placeholder: "Seaview Apartments" },
        "evidence.operator": { help: "Who runs the listing and is paid: your verified organisation's legal name. A listing speaks only for its own operator.", placeholder: "Seaview Apartments Ltd" },
        "evidence.listing_url": { label: "Listing link", help: "The listing's address (marketplace page, booking page), http or https.", placeholder: "https://" },
        "evidence.domain": { label: "Operator's website", help: "The operator's own website, as a domain name (example.com).", placeholder: "example.com" },
        "evidence.licence": { label: "Licence (optional)", help: "A licence the operator holds. Leave both empty if none." },
        "evidence.licence.authority": { label: "Issuing authority", placeholder: "Malta Tourism Authority" },
        "evidence.licence.number": { label: "Licence number" },
        "evidence.payee": { label: "Payee", help: "Where payments for the listing go: a bank account or a wallet." },
        "evidence.payee.type": { label: "Paid to", options: { iban: "A bank account (IBAN)", wallet: "A crypto wallet" } },
        "evidence.payee.value": { label: "IBAN or wallet address", placeholder: "DE89 3704 0044 0532 0130 00" },
        "evidence.payee.account_name": { label: "Account holder", help: "For a bank account: the name the account is held in." },
        "evidence.payee.bank_name": { label: "Bank", help: "For a bank account: the bank's name." },
        "evidence.payee.network": { label: "Wallet network", help: "For a wallet: its network (default Ethereum)." },
        "evidence.domain_record": { label: "Your domain record", help: "The id (PRS-…) of your active Domain ownership record for the operator's website. Without it a reviewer checks the website.", placeholder: "PRS-…" },
        "evidence.payee_record": { label: "Your wallet record", help: "For a wallet payee, required: the id (PRS-…) of your active Wallet ownership record of that address.", placeholder: "PRS-…" },
        "evidence.licence_record": { label: "Your licence record", help: "The id (PRS-…) of a licence record a reviewer confirmed, with the same authority and number. Without it a reviewer checks the licence.", placeholder: "PRS-…" },
      },
      documents: { help: "What lets the reviewer confirm what no record of yours covers: a bank letter naming the operator as the account holder of an IBAN, the licence, a registry extract." },
    },
    validate(input) {
      const rules = evidenceRules(input, "verified_listing", listingEvidence, LEVELS);
      if (rules) return rules;
      const e = listingEvidence.parse(input.evidence ?? {});
      if (e.payee.type === "iban") {
        if (!isValidIBAN(electronicFormatIBAN(e.payee.value) ?? "")) {
          return { code: "invalid_iban", param: "evidence.payee.value", message: "Not a valid IBAN: its length, country or check digits are wrong." };
        }
        if (e.payee_record) return { code: "field_not_allowed", param: "evidence.payee_record", message: "payee_record proves a wallet; an IBAN payee is confirmed by a reviewer." };
      } else {
        const network = e.payee.network ?? "ethereum";
        const a = normalizeAddress(e.payee.value, network);
        if ("error" in a) return { ...a.error, param: "evidence.payee.value" };
        if (!e.payee_record) return { code: "missing_field", param: "evidence.payee_record", message: "A wallet payee needs payee_record: a wallet_ownership record of that address." };
      }
      const d = normalizeDomain(e.domain);
      if (!("domain" in d)) return { ...d.error, param: "evidence.domain" };
      return null;
    },
    links: {
      of: (input) => {
        const e = listingEvidence.safeParse(input.evidence ?? {}).data;
        return e ? PART_ROLES.flatMap((role) => (e[role] ? [{ role, targetId: e[role]! }] : [])) : [];
      },
      /** Every link is a part: the listing stands only while its domain, payee and licence records do. */
      means: Object.fromEntries(PART_ROLES.map((role) => [role, { kind: "part" } as const])),
    },
  },
  async check(input, ctx): Promise<CheckOutcome> {
    const e = listingEvidence.parse(input.evidence ?? {});
    for (const role of PART_ROLES) {
      if (!e[role]) continue;
      const problem = partProblem(role, ctx.linked.get(role), e, ctx);
      if (problem) return { kind: "fail", error: problem };
    }
    const payee = e.payee.type === "iban"
      ? { ...e.payee, value: electronicFormatIBAN(e.payee.value)! }
      : { ...e.payee, network: e.payee.network ?? "ethereum" };
    const d = normalizeDomain(e.domain);
    const publicEvidence = { ...e, domain: "domain" in d ? d.domain : e.domain, payee, checked_at: ctx.now.toISOString() };
    // partProblem made sure a domain_record proves exactly this domain.
    const provedDomain = e.domain_record && "domain" in d ? d.domain : null;
    const notOwn = operatorProblem(e, await ctx.account());
    if (notOwn) return { kind: "fail", error: notOwn };
    const open = uncheckedParts(e, provedDomain);
    if (open.length === 0) return { kind: "issue", evidenceLevel: "source_verified", publicEvidence };
    return {
      kind: "review", evidenceLevel: "evidence_verified", publicEvidence: { ...publicEvidence, reviewed_parts: open.map((o) => o.part) },
      reason: `Not checked: ${open.map((o) => o.part).join(", ")}. A reviewer confirms ${open.map((o) => o.why).join("; ")}. Attach documents for the reviewer if you have them.`,
    };
  },
  review: {
    checklist: [
      {
        key: "parts_confirmed",
        label: "Each part the submission lists as not checked is confirmed from a document or a source I reached myself: the bank letter names the operator as the IBAN's holder; the licence is in the authority's register under the operator's name; the domain is the operator's. (The operator itself is the account's verified organisation: the service checked it.)",
        fields: ["evidence.reviewed_parts", "evidence.operator", "evidence.payee.value", "evidence.payee.account_name", "evidence.licence.authority", "evidence.licence.number", "evidence.domain"],
      },
      { key: "listing_matches", label: "The listing page names the operator and the payee as submitted (or shows this record's token).", fields: ["evidence.listing_url", "evidence.operator", "evidence.payee.value"] },
    ],
    /** A submission from before the operator rule listed the operator for a reviewer: no reviewer confirms an operator. */
    beforeApprove: ({ evidence }) =>
      reviewedParts(evidence).includes("operator")
        ? "A reviewer cannot confirm a listing's operator: only the operator's own verified account can list it. Reject this submission."
        : null,
  },
  view: {
    /** One fact per part: each resting on the record (or the organisation verification) that checked it. */
    facts: (_subject, evidence) => listingFacts(evidence),
    /** The operator the listing names. */
    namedValues: (_subject, evidence) =>
      typeof evidence.operator === "string" ? [{ kind: "name", value: evidence.operator, field: "evidence.operator" }] : [],
    /** A listing is found by its link, its website, its payee and its licence number (lib/public/lookup normalises them). */
    lookupValues: (_subject, evidence) => {
      const e = listingEvidence.safeParse(stripComputed(evidence)).data;
      if (!e) return [];
      return [
        { kind: "listing_url", value: e.listing_url, field: "evidence.listing_url" },
        { kind: "website", value: e.domain, field: "evidence.domain" },
        { kind: e.payee.type === "iban" ? "iban" : "wallet", value: e.payee.value, field: "evidence.payee.value" },
        ...(e.licence ? [{ kind: "licence_number" as const, value: e.licence.number, field: "evidence.licence.number" }] : []),
      ];
    },
    publicFields({ links }) {
      return {
        parts: links.flatMap((l) => (isPartRole(l.role) ? [{ role: l.role, verification_id: l.record?.verification_id ?? null, standing: l.standing }] : [])),
      };
    },
  },
  policy: {
    /**
     * An operator checked as the account's verified organisation stands only while it is one,
     * under that legal name (a reviewer-confirmed operator does not rest on it).
     */
    accountPartLapsed(evidence, account) {
      if (reviewedParts(evidence).includes("operator") || typeof evidence.operator !== "string") return null;
      const org = account.organisation;
      if (org && org.status === "verified" && account.name_verified && sameLegalName(org.legal_name, evidence.operator)) return null;
      return `The operator "${evidence.operator}" is no longer this account's verified organisation.`;
    },
  },
};

/** The facts a listing stands for, one per part, from its public evidence; a part without a record of its own is the reviewer's. */
function listingFacts(evidence: Record<string, unknown>): CheckedFact[] {
  const e = listingEvidence.safeParse(stripComputed(evidence)).data;
  if (!e) return [];
  const reviewed = reviewedParts(evidence);
  // A part a reviewer confirmed names no record: the reviewer's own sources are theirs.
  const part = (fact: ListingPart, source: string | undefined): CheckedFact =>
    ({ fact, by: "source", ...(source && !reviewed.includes(fact) ? { source } : {}) });
  const domainRec = e.domain_record ? `${domainOwnership.type} record ${e.domain_record}` : undefined;
  return [
    part("operator", `the account's organisation verification (${e.operator})`),
    part("listing_link", domainRec),
    part("domain", domainRec),
    part("payee", e.payee_record ? `${walletOwnership.type} record ${e.payee_record}` : undefined),
    ...(e.licence ? [part("licence", e.licence_record ? `licence record ${e.licence_record}` : undefined)] : []),
  ];
}

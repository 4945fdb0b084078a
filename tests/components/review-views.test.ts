import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EvidenceView } from "@/app/review/evidence";
import { claimUi } from "@/components/claims";
import type { Evidence } from "@/components/claims/types";
import { documentedClaimTypes } from "@/lib/claims/registry";
import type { ChecklistItem, ClaimModule } from "@/lib/claims/types";
import { checklistFor } from "@/lib/reviews/checklists";

/*
 * A reviewer sees, on the review page, every fact a checklist item asks them to confirm
 * (issue 39, item 1): each item names its fields; `subject` and `claim` are shown at the top of
 * the page, every `evidence.…` field by the type's review view (components/claims, `ReviewEvidence`,
 * or the generic source view) as an element with `data-field`. A type with a checklist of its own
 * has a review view of its own. A new reviewed type, or a checklist item naming a field its view
 * leaves out, fails here.
 */
const PAGE_FIELDS = new Set(["subject", "claim"]);

/** Evidence shapes beyond a type's documented example, where its checklist or view depends on them (test data). */
const MORE_SAMPLES: Record<string, Evidence[]> = {
  dex_control: [
    { subtype: "vault_leader", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", domain: "vault.example.com", social_handle: "@vault", vault_address: "0x1111111111111111111111111111111111111111" },
    { subtype: "wallet_owner", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", domain: "me.example.com", social_handle: "@me" },
    { subtype: "builder", mode: "domainless", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", social_handle: "@b", social_post_url: "https://x.com/b/status/1", token: "prs-dex-abc" },
  ],
  verified_listing: [
    {
      operator: "Seaview Apartments Ltd", listing_url: "https://rentals.example/listing/4471", domain: "seaview.example.com",
      payee: { type: "iban", value: "DE89370400440532013000", account_name: "Seaview Apartments Ltd", bank_name: "Commerzbank" },
      licence: { authority: "Malta Tourism Authority", number: "HPI/1234" }, reviewed_parts: ["listing_link", "domain", "payee", "licence"],
    },
  ],
};

/** The evidence a documented example submits (nested `evidence`, or the top-level fields of a type without it). */
function exampleEvidence(m: ClaimModule): Evidence {
  const v = m.docs.example.value;
  return typeof v.evidence === "object" && v.evidence !== null ? (v.evidence as Evidence) : v;
}

/** What is wrong with a type's review page for `evidence`: items naming no field, and fields no element shows. */
function reviewViewProblems(checklist: readonly ChecklistItem[], View: ComponentType<{ evidence: Evidence }>, evidence: Evidence): string[] {
  const markup = renderToStaticMarkup(createElement(View, { evidence }));
  return checklist.flatMap((item) => [
    ...(item.fields.length === 0 ? [`${item.key}: names no field`] : []),
    ...item.fields.filter((f) => !PAGE_FIELDS.has(f) && !markup.includes(`data-field="${f}"`)).map((f) => `${item.key}: ${f} is not shown`),
  ]);
}

/** The review page's view of a type: its own, or the generic source view. */
const viewOf = (type: string): ComponentType<{ evidence: Evidence }> =>
  claimUi(type)?.ReviewEvidence ?? ((p: { evidence: Evidence }) => createElement(EvidenceView, { claimType: type, evidence: p.evidence, submitted: null }));

/** Types a reviewer can approve: a review policy or a reviewed level, and an approval that is not refused outright. */
const reviewable = documentedClaimTypes().filter((m) => {
  if (!m.review && !m.request.levels?.includes("evidence_verified") && m.type !== "*") return false;
  const now = new Date();
  return m.review?.beforeApprove?.({ createdAt: now, evidence: exampleEvidence(m) }, now) == null;
});

describe("every reviewed type shows what its checklist asks to confirm", () => {
  it("covers the types a reviewer decides", () => {
    expect(reviewable.map((m) => m.type)).toEqual(expect.arrayContaining(["verified_listing", "domain_ownership", "wallet_ownership", "company_identity", "*"]));
  });

  it.each(reviewable.map((m) => [m.type, m] as const))("%s", (type, m) => {
    // A checklist of its own needs a view of its own (the generic one shows a source, nothing else).
    if (m.review?.checklist) expect(claimUi(type)?.ReviewEvidence, `${type} has its own checklist but no review view`).toBeDefined();
    for (const evidence of [exampleEvidence(m), ...(MORE_SAMPLES[type] ?? [])]) {
      expect(reviewViewProblems(checklistFor(type === "*" ? "press_coverage" : type, evidence), viewOf(type), evidence), JSON.stringify(evidence)).toEqual([]);
    }
  });

  it("fails for a type without a view, and for an item naming a field the view leaves out", () => {
    const checklist: ChecklistItem[] = [{ key: "holder", label: "The bank letter names the holder.", fields: ["evidence.payee.account_name"] }];
    const bare = () => createElement("dl", null);
    expect(reviewViewProblems(checklist, bare, {})).toEqual(["holder: evidence.payee.account_name is not shown"]);
    expect(reviewViewProblems([{ key: "vague", label: "Looks right.", fields: [] }], bare, {})).toEqual(["vague: names no field"]);
    // The listing's own view shows the holder.
    expect(reviewViewProblems(checklist, viewOf("verified_listing"), MORE_SAMPLES.verified_listing![0]!)).toEqual([]);
  });
});

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

/** The value at a dotted `evidence.…` path, when it is one a reviewer reads as text (a string or a number). */
function valueAt(evidence: Evidence, field: string): string | null {
  let v: unknown = { evidence };
  for (const k of field.split(".")) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
}

/** The text of the element carrying `data-field="f"` (tags dropped, entities of the renderer decoded), or null. */
function shownText(markup: string, field: string): string | null {
  const m = new RegExp(`<(\\w+)[^>]*data-field="${field.replace(/[.]/g, "\\.")}"[^>]*>([\\s\\S]*?)</\\1>`).exec(markup);
  if (!m) return markup.includes(`data-field="${field}"`) ? "" : null;
  return m[2]!.replace(/<[^>]*>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;/g, "'");
}

/** Compared as a reviewer reads: case and spacing aside (an IBAN in groups of four, a checksummed address). */
const loose = (s: string) => s.replace(/\s+/g, "").toLowerCase();

/**
 * What is wrong with a type's review page for `evidence`: items naming no field, fields no
 * element shows, and fields whose element does not show the submitted value itself.
 */
function reviewViewProblems(checklist: readonly ChecklistItem[], View: ComponentType<{ evidence: Evidence }>, evidence: Evidence): string[] {
  const markup = renderToStaticMarkup(createElement(View, { evidence }));
  return checklist.flatMap((item) => [
    ...(item.fields.length === 0 ? [`${item.key}: names no field`] : []),
    ...item.fields.filter((f) => !PAGE_FIELDS.has(f)).flatMap((f) => {
      const text = shownText(markup, f);
      if (text === null) return [`${item.key}: ${f} is not shown`];
      const value = valueAt(evidence, f);
      return value !== null && !loose(text).includes(loose(value)) ? [`${item.key}: ${f} does not show the submitted ${JSON.stringify(value)}`] : [];
    }),
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
    // An element that names the field but shows something else is not showing it.
    const wrong = () => createElement("dl", null, createElement("dd", { "data-field": "evidence.payee.account_name" }, "Someone Else Ltd"));
    expect(reviewViewProblems(checklist, wrong, { payee: { account_name: "Seaview Apartments Ltd" } })).toEqual(['holder: evidence.payee.account_name does not show the submitted "Seaview Apartments Ltd"']);
    // The listing's own view shows the holder.
    expect(reviewViewProblems(checklist, viewOf("verified_listing"), MORE_SAMPLES.verified_listing![0]!)).toEqual([]);
  });
});

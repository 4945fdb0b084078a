import { describe, expect, inject, it } from "vitest";
import { baseUrl, call, newAccount, untilRechecked } from "../helpers";
import { LEI, randomLei, setLeiRecord, updateLeiRecord } from "../lei-register";
import { verifyWithJwks } from "../signatures";

/**
 * company_identity through the HTTP API against the LEI register stand-in (GLEIF's JSON:API
 * shapes) that the server's LEI_API_URL names, with LEI_TIMEOUT_MS 700; a re-check is asked for
 * (the operator's `record recheck`). Signatures are checked with jose + canonicalize.
 */
const { recordsFile } = inject("leiRegister");

const create = (key: string, subject: string, lei: string) =>
  call("POST", "/api/v1/records", {
    key, body: { subject, claim_type: "company_identity", claim: `${subject} holds an active LEI.`, visibility: "public", evidence: { lei } },
  });

async function statusOf(id: string) {
  return (await call("GET", `/api/v1/records/${id}/status`)).body.status as string;
}

describe("company_identity records", () => {
  it("issues at source_verified when the LEI is ISSUED and ACTIVE and the subject is its legal name, signed in status and certificate", async () => {
    const { sandboxKey } = await newAccount("lei");
    // the name compares after NFKC, case folding and white-space collapsing
    const r = await create(sandboxKey, "  proof RECORDS   test company LTD ", LEI.active);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: "active", evidence_level: "source_verified", claim_type: "company_identity" });
    expect(r.body.evidence).toMatchObject({
      lei: LEI.active, legal_name: "Proof Records Test Company Ltd", jurisdiction: "GB", registration_status: "ISSUED",
      entity_status: "ACTIVE", next_renewal_date: "2027-07-06T07:17:33Z", register_url: `https://search.gleif.org/#/record/${LEI.active}`,
    });
    expect(Date.parse(r.body.evidence.checked_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(r.body.lifecycle.recheck_at).not.toBeNull();

    const st = (await call("GET", `/api/v1/records/${r.body.verification_id}/status`)).body;
    const { status_signature, ...signed } = st;
    expect(signed).toMatchObject({ status: "active", claim_type: "company_identity", evidence_level: "source_verified" });
    expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
    const sig = (await call("GET", `/api/v1/records/${r.body.verification_id}/signature`)).body;
    expect(sig.signed_payload.evidence).toEqual(r.body.evidence);
    expect(await verifyWithJwks(sig.signed_payload, sig.signature, sig.signing_key_id)).toBe(true);

    const page = await (await fetch(`${baseUrl()}/r/${r.body.verification_id}`)).text();
    expect(page).toContain(`https://search.gleif.org/#/record/${LEI.active}`);
    expect(page).toContain("What this record does not prove");
  });

  it.each([
    ["bad check digits", "Acme Ltd", `${LEI.active.slice(0, 18)}${LEI.active.endsWith("00") ? "01" : "00"}`, "invalid_lei", "evidence.lei"],
    ["not an LEI at all", "Acme Ltd", "ACME", "invalid_lei", "evidence.lei"],
    ["unknown to the register", "Acme Ltd", LEI.unknown, "lei_not_found", "evidence.lei"],
    ["a lapsed registration", "UK Equity Fund (Offshore)", LEI.lapsed, "lei_not_active", "evidence.lei"],
    ["an inactive entity", "Dissolved Holdings GmbH", LEI.inactive, "lei_not_active", "evidence.lei"],
    ["another legal name", "Proof Records Test Company Limited", LEI.active, "subject_mismatch", "subject"],
  ])("refuses %s with its code", async (_what, subject, lei, code, param) => {
    const { sandboxKey } = await newAccount("lei");
    const r = await create(sandboxKey, subject, lei);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code, param });
    if (code === "subject_mismatch") expect(r.body.error.message).toContain("Proof Records Test Company Ltd");
    if (code === "lei_not_active") expect(r.body.error.message).toMatch(/LAPSED|INACTIVE/);
    expect((await call("GET", "/api/v1/records", { key: sandboxKey })).body.data).toEqual([]);
  });

  it.each([
    ["answers too slowly", LEI.slow, /did not answer|time/i],
    ["answers 503", LEI.serverError, /503/],
    ["answers what is not JSON", LEI.notJson, /./],
  ])("accepts the submission for review (202) when the register %s", async (_what, lei, reason) => {
    const { sandboxKey } = await newAccount("lei");
    const r = await create(sandboxKey, "Whoever Ltd", lei);
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ status: "pending_review", evidence_level: null, review: { evidence_level: "evidence_verified" } });
    expect(r.body.review.reason).toMatch(reason);
  });

  it("a 429 is unreachable (202) too; the register answering later lets the same request issue", async () => {
    const { sandboxKey } = await newAccount("lei");
    const lei = randomLei();
    setLeiRecord(recordsFile, lei, { legalName: "Rate Limited Ltd", registrationStatus: "ISSUED", entityStatus: "ACTIVE", rateLimited: 1 });
    const first = await create(sandboxKey, "Rate Limited Ltd", lei);
    expect(first.status, first.text).toBe(202);
    expect(first.body.review.reason).toMatch(/rate limit/i);
    const second = await create(sandboxKey, "Rate Limited Ltd", lei);
    expect(second.status, second.text).toBe(201);
  });

  it("a re-check suspends the record when the registration lapses and reinstates it once renewed", async () => {
    const { sandboxKey } = await newAccount("lei");
    const lei = randomLei();
    setLeiRecord(recordsFile, lei, { legalName: "Renewing Widgets plc", jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    const r = await create(sandboxKey, "Renewing Widgets plc", lei);
    expect(r.status, r.text).toBe(201);
    const id = r.body.verification_id;

    updateLeiRecord(recordsFile, lei, { registrationStatus: "LAPSED" });
    let status = await untilRechecked("a re-check to act on the lapsed registration", id, async () => {
      const s = await statusOf(id);
      return s !== "active" && s;
    });
    expect(status).toBe("suspended");
    const lapsed = (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
    expect(lapsed.lifecycle.history.at(-1)).toMatchObject({ status: "suspended", by: "system" });
    expect(lapsed.lifecycle.history.at(-1).reason).toContain("LAPSED");

    updateLeiRecord(recordsFile, lei, { registrationStatus: "ISSUED" });
    status = await untilRechecked("a re-check to act on the renewed registration", id, async () => {
      const s = await statusOf(id);
      return s !== "suspended" && s;
    });
    expect(status).toBe("active");
    const back = (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
    expect(back.lifecycle.history.map((h: { status: string; by: string }) => [h.status, h.by])).toEqual([
      ["active", "owner"], ["suspended", "system"], ["active", "system"],
    ]);
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { admin, call, issue, newAccount, uniqueEmail, untilRechecked } from "../helpers";
import { mailTo } from "../mail-capture";
import { waitFor } from "../webhook-receiver";
import { LEI, randomLei, setLeiRecord, updateLeiRecord } from "../lei-register";
import { nextIp, PASSWORD, portalPage, serverAction, signIn, signUp, staffSession, type Client } from "../portal-client";
import { verifyWithJwks } from "../signatures";
import { PDF, upload } from "../uploads";

/**
 * Organisation verification (CONTRACT "The speaking account") through the API, the reviewer
 * console's own server action and the LEI register stand-in (re-checks asked for by the test): apply →
 * pending; approve → the account is a verified organisation whose name is locked; one LEI has
 * one verified account; a lapse in the register shows in every signed status.
 */
const { recordsFile } = inject("leiRegister");

const LEI_CHECKS = ["lei_active", "document_names_applicant", "independent_channel"];
const applicant = { name: "Ada Lovelace", role: "Director", email: "ada@example.com" };

/** The reviewer console's decision, through its server action (what the page's forms post). */
const decide = (c: Client, id: string, form: Record<string, string | string[]>) =>
  serverAction(c, `/review/organisations/${id}`, ["app/review/organisations/actions.ts", "decideOrganisationAction"], { form: { id, ...form } });

async function apply(key: string, body: Record<string, unknown>) {
  const doc = (await upload(key, PDF, "authority.pdf")).body.id as string;
  return call("POST", "/api/v1/account/organisation-verification", { key, body: { applicant, documents: [doc], ...body } });
}

/** An LEI of the test's own in the register, ISSUED and ACTIVE. */
function ownLei(legalName: string) {
  const lei = randomLei();
  setLeiRecord(recordsFile, lei, { legalName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
  return lei;
}

describe("applying", () => {
  it("answers 202 pending with the register's answer and the documents; GET reads it; a second pending application is 409", async () => {
    const { sandboxKey } = await newAccount("org");
    const r = await apply(sandboxKey, { lei: LEI.active.toLowerCase() });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({
      object: "organisation_verification", id: expect.stringMatching(/^orv_/), status: "pending", lei: LEI.active, applicant,
      register: { result: "found", legal_name: "Proof Records Test Company Ltd", registration_status: "ISSUED", entity_status: "ACTIVE" },
      decided_at: null, reason: null,
    });
    expect(r.body.documents).toEqual([{ id: expect.stringMatching(/^file_/), filename: "authority.pdf", content_type: "application/pdf", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    const got = await call("GET", "/api/v1/account/organisation-verification", { key: sandboxKey });
    expect(got.body).toEqual({ object: "organisation_verification_state", application: r.body, organisation: null, name_verified: false });
    const again = await apply(sandboxKey, {});
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe("verification_pending");
  });

  it("keeps what the register answered: no record, or no answer at all", async () => {
    const a = await newAccount("org");
    expect((await apply(a.sandboxKey, { lei: LEI.unknown })).body.register).toMatchObject({ result: "not_found" });
    const b = await newAccount("org");
    const r = await apply(b.sandboxKey, { lei: LEI.serverError });
    expect(r.status, r.text).toBe(202);
    expect(r.body.register).toMatchObject({ result: "unreachable", reason: expect.stringMatching(/503/) });
  });

  it.each([
    ["a malformed LEI", { lei: "ACME-LEI" }, "invalid_lei", "lei"],
    ["bad LEI check digits", { lei: `${LEI.active.slice(0, 18)}${LEI.active.endsWith("00") ? "01" : "00"}` }, "invalid_lei", "lei"],
    ["a bidi control in the applicant's name", { applicant: { ...applicant, name: "Ada \u202Eecalevol" } }, "invalid_format", "applicant.name"],
    ["a zero-width space in the role", { applicant: { ...applicant, role: "Dir\u200Bector" } }, "invalid_format", "applicant.role"],
    ["a control character in the role", { applicant: { ...applicant, role: "Dir\u0007ector" } }, "invalid_format", "applicant.role"],
    ["no documents", { documents: [] }, "too_short", "documents"],
  ])("refuses %s (422 naming the field)", async (_what, body, code, param) => {
    const { sandboxKey } = await newAccount("org");
    const r = await apply(sandboxKey, body);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code, param });
  });

  it("refuses another account's file as a document (422 naming documents[i])", async () => {
    const owner = await newAccount("org");
    const other = await newAccount("org");
    const theirs = (await upload(owner.sandboxKey, PDF, "theirs.pdf")).body.id;
    const mine = (await upload(other.sandboxKey, PDF, "mine.pdf")).body.id;
    const r = await call("POST", "/api/v1/account/organisation-verification", { key: other.sandboxKey, body: { applicant, documents: [mine, theirs] } });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "invalid_document", param: "documents[1]" });
  });
});

describe("the reviewer's decision", () => {
  it("approval makes the account the verified organisation: legal name from the register, name locked, documents readable by the reviewer only", async () => {
    const rev = await staffSession("reviewer", "orgrev");
    const { sandboxKey } = await newAccount("org");
    const lei = ownLei("Lovelace Analytical Engines Ltd");
    const app = (await apply(sandboxKey, { lei })).body;
    const page = await portalPage(rev, `/review/organisations/${app.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Lovelace Analytical Engines Ltd");
    expect(page.html).not.toContain("lei-holder-warning");
    const doc = await fetch(`${rev.base}/review/organisations/${app.id}/files/${app.documents[0].id}`, { headers: { cookie: rev.cookie!, "x-forwarded-for": rev.ip } });
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toBe("application/pdf");
    expect(doc.headers.get("content-disposition")).toMatch(/^inline/);
    expect(doc.headers.get("x-content-type-options")).toBe("nosniff");
    expect(doc.headers.get("content-security-policy")).toMatch(/^sandbox/);
    expect(Buffer.from(await doc.arrayBuffer()).equals(PDF)).toBe(true);

    const incomplete = await decide(rev, app.id, { decision: "approve", checklist: LEI_CHECKS.slice(0, 2) });
    expect(incomplete.text).toContain("not ticked");
    expect(incomplete.text).toContain("a channel the applicant did not supply");
    const ok = await decide(rev, app.id, { decision: "approve", checklist: LEI_CHECKS });
    expect(ok.text).toContain('"done":"approved"');

    const account = (await call("GET", "/api/v1/account", { key: sandboxKey })).body;
    expect(account).toMatchObject({
      name: "Lovelace Analytical Engines Ltd", name_verified: true,
      organisation: { legal_name: "Lovelace Analytical Engines Ltd", lei, jurisdiction: "GB", basis: "lei_register", status: "verified", domains: [] },
    });
    const state = (await call("GET", "/api/v1/account/organisation-verification", { key: sandboxKey })).body;
    expect(state.application).toMatchObject({ id: app.id, status: "approved", decided_at: expect.any(String) });
    expect(state.organisation).toEqual(account.organisation);
    const rename = await call("PATCH", "/api/v1/account", { key: sandboxKey, body: { name: "Something Else Ltd" } });
    expect(rename.status, rename.text).toBe(409);
    expect(rename.body.error).toMatchObject({ code: "name_locked", param: "name" });
    // Decided once: a second decision is a conflict.
    expect((await decide(rev, app.id, { decision: "reject", reason: "Too late." })).text).toContain("already decided");
  });

  it("a second account applying for the same LEI is flagged with the holder, and its approval is refused (lei_already_verified)", async () => {
    const rev = await staffSession("reviewer", "orgrev");
    const first = await newAccount("org");
    const second = await newAccount("org");
    const lei = ownLei("Babbage Difference Works plc");
    const a = (await apply(first.sandboxKey, { lei })).body;
    expect((await decide(rev, a.id, { decision: "approve", checklist: LEI_CHECKS })).text).toContain('"done":"approved"');

    const b = (await apply(second.sandboxKey, { lei })).body;
    expect(b.status).toBe("pending");
    const page = await portalPage(rev, `/review/organisations/${b.id}`);
    expect(page.html).toContain("lei-holder-warning");
    expect(page.html).toContain(first.accountId);
    expect(page.html).toContain("Babbage Difference Works plc");
    const refused = await decide(rev, b.id, { decision: "approve", checklist: LEI_CHECKS });
    expect(refused.text).toContain(`is already the verified organisation of account ${first.accountId}`);
    const state = (await call("GET", "/api/v1/account/organisation-verification", { key: second.sandboxKey })).body;
    expect(state).toMatchObject({ application: { id: b.id, status: "pending" }, organisation: null, name_verified: false });
    // The reviewer rejects it instead; the applicant reads the reason.
    expect((await decide(rev, b.id, { decision: "reject", reason: "This LEI is already verified for another account." })).text).toContain('"done":"rejected"');
    const rejected = (await call("GET", "/api/v1/account/organisation-verification", { key: second.sandboxKey })).body;
    expect(rejected.application).toMatchObject({ status: "rejected", reason: "This LEI is already verified for another account." });
  });

  it("a namesake — another organisation already verified under the same legal name — is shown to the reviewer before approval", async () => {
    // The attacker's steps: an entity elsewhere (or none: documents) with a real organisation's legal name applies.
    const rev = await staffSession("reviewer", "orgrev");
    const name = `Jacquard Looms ${randomUUID().slice(0, 6)} Ltd`;
    const first = await newAccount("org");
    const lei = ownLei(name);
    const a = (await apply(first.sandboxKey, { lei })).body;
    // The first of the name: no namesake.
    expect((await portalPage(rev, `/review/organisations/${a.id}`)).html).not.toContain('data-testid="namesakes"');
    expect((await decide(rev, a.id, { decision: "approve", checklist: LEI_CHECKS })).text).toContain('"done":"approved"');

    // A second account, no LEI, calling itself by the same name (other case and spacing): the reviewer sees the first.
    const second = await newAccount("org");
    expect((await call("PATCH", "/api/v1/account", { key: second.sandboxKey, body: { name: `  ${name.toUpperCase()} ` } })).status).toBe(200);
    const b = (await apply(second.sandboxKey, {})).body;
    const page = await portalPage(rev, `/review/organisations/${b.id}`);
    expect(page.status).toBe(200);
    const box = page.html.slice(page.html.indexOf('data-testid="namesakes"'));
    expect(page.html).toContain('data-testid="namesakes"');
    expect(box).toContain(name);
    expect(box).toContain(lei);
    expect(box).toContain(first.accountId);
    expect(box).toContain("LEI register");
    expect(box).toContain("GB");
    // The same name as a verified organisation is a high risk signal: two reviewers must approve (four eyes).
    expect(page.html).toContain('data-testid="risk-panel" data-level="high"');
    const approval = { decision: "approve", checklist: ["legal_name_from_documents", "document_names_applicant", "independent_channel"], legal_name: name };
    expect((await decide(rev, b.id, approval)).text).toContain('"done":"awaiting_second_approval"');
    expect((await decide(rev, b.id, approval)).text).toContain("second reviewer");
    // Approved all the same by a second reviewer (a different entity may share a name): /check then cannot tell them apart by name alone.
    const rev2 = await staffSession("reviewer", "orgrev2");
    expect((await decide(rev2, b.id, approval)).text).toContain('"done":"approved"');
    const check = await call("GET", `/api/v1/check?${new URLSearchParams({ operator: name })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(check.body.parts.operator).toMatchObject({ verdict: "close_match", shared_name: true });
    expect((await call("GET", `/api/v1/check?${new URLSearchParams({ operator: lei })}`, { headers: { "x-forwarded-for": nextIp() } })).body.parts.operator).toMatchObject({ verdict: "match", lei });
    // The first one's page now lists the second as its namesake, too.
    expect((await portalPage(rev, `/review/organisations/${a.id}`)).html).toContain(second.accountId);
  });

  it("without an LEI the reviewer types the legal name from the documents (basis documents); customers cannot decide; the applicant is told", async () => {
    const rev = await staffSession("reviewer", "orgrev");
    const applicantEmail = uniqueEmail("orgmail");
    const made = await admin("account", "create", "--email", applicantEmail);
    await admin("account", "confirm-email", "--account", made.account_id as string);
    const sandboxKey = made.sandbox_key as string;
    const app = (await apply(sandboxKey, {})).body;
    expect(app).toMatchObject({ lei: null, register: null });
    const customer: Client = { base: inject("baseUrl"), ip: nextIp() };
    const email = uniqueEmail("orgcust");
    await signUp(customer, email, PASSWORD);
    const signedIn = { ...customer, cookie: (await signIn(customer, "credentials", { email, password: PASSWORD })).cookie };
    const denied = await decide(signedIn, app.id, { decision: "approve", checklist: ["legal_name_from_documents", "document_names_applicant", "independent_channel"], legal_name: "Forged Ltd" });
    expect(denied.text).toContain("Only reviewers and admins");
    expect((await portalPage(signedIn, `/review/organisations/${app.id}`)).status).toBe(403);
    expect((await fetch(`${signedIn.base}/review/organisations/${app.id}/files/${app.documents[0].id}`, { headers: { cookie: signedIn.cookie!, "x-forwarded-for": signedIn.ip } })).status).toBe(404);

    const ok = await decide(rev, app.id, { decision: "approve", checklist: ["legal_name_from_documents", "document_names_applicant", "independent_channel"], legal_name: "Ada Lovelace trading as Engines" });
    expect(ok.text).toContain('"done":"approved"');
    const account = (await call("GET", "/api/v1/account", { key: sandboxKey })).body;
    expect(account.organisation).toMatchObject({ legal_name: "Ada Lovelace trading as Engines", lei: null, basis: "documents", status: "verified" });
    // The applicant's confirmed address gets the decision (queued with it, sent by the outbox worker).
    const mail = await waitFor(() => mailTo(inject("mailDir"), applicantEmail, /Subject: Your organisation is verified/), 15_000);
    expect(mail).toContain(app.id);
  });
});

describe("the LEI re-check", () => {
  it("a lapse in the register turns organisation.status to lapsed in a record's signed status, and a renewal back to verified", async () => {
    const rev = await staffSession("reviewer", "orgrev");
    const { sandboxKey, accountId } = await newAccount("org");
    const lei = ownLei("Menabrea Translations SpA");
    const rec = await issue(sandboxKey);
    const app = (await apply(sandboxKey, { lei })).body;
    expect((await decide(rev, app.id, { decision: "approve", checklist: LEI_CHECKS })).text).toContain('"done":"approved"');

    const signedAccount = async () => {
      const { status_signature, ...signed } = (await call("GET", `/api/v1/records/${rec.verification_id}/status`)).body;
      expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
      return signed.account;
    };
    expect(await signedAccount()).toMatchObject({ name: "Menabrea Translations SpA", name_verified: true, organisation: { lei, status: "verified" } });

    updateLeiRecord(recordsFile, lei, { registrationStatus: "LAPSED" });
    const lapsed = await untilRechecked("the organisation to lapse", { organisation: accountId }, async () => {
      const a = await signedAccount();
      return a.organisation?.status === "lapsed" && a;
    });
    expect(lapsed).toMatchObject({ name: "Menabrea Translations SpA", name_verified: false, organisation: { status: "lapsed" } });
    expect((await call("GET", "/api/v1/account", { key: sandboxKey })).body.organisation.status).toBe("lapsed");

    updateLeiRecord(recordsFile, lei, { registrationStatus: "ISSUED" });
    await untilRechecked("the organisation to stand again", { organisation: accountId }, async () => (await signedAccount()).organisation?.status === "verified");
  });
});

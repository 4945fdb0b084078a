import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { admin, call, issue, newLiveAccount, setDns, untilRechecked } from "../helpers";
import { nextIp, portalPage, serverAction, staffSession, type Client } from "../portal-client";
import { domainRecord, walletRecord } from "../proved-records";
import { verifyWithJwks } from "../signatures";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * CONTRACT "What still stands": a listing is suspended by the system the moment a part it
 * rests on stops being active (the part named, `record.status_changed` for the listing, in the
 * part's own transaction) and reinstated by the system when every part stands again — never
 * lifting its owner's or staff's suspension; the owner cannot lift a system or staff
 * suspension (409 suspended_by_system / suspended_by_staff); reviewers, admins and the
 * operator CLI suspend, reinstate or revoke any record with a public reason, from the console's
 * record page and from a problem report, and the certificate says Proof Records acted.
 * The test server re-checks daily, as production does: a test about a re-check asks for one
 * (the operator's `record recheck`, tests/helpers.ts untilRechecked).
 */
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

const OPERATOR = "Harbour Lofts Ltd";

/** A verified organisation's listing on its proved domain, paid to its proved wallet: 201 source_verified. */
async function verifiedListing(hooked = false) {
  const live = await newLiveAccount();
  const d = await domainRecord(live.liveKey);
  await admin("organisation", "verify", "--account", live.accountId, "--legal-name", OPERATOR, "--domains", d.domain);
  const w = await walletRecord(live.liveKey);
  let ep: ReturnType<typeof rx.endpoint> | undefined;
  if (hooked) {
    ep = rx.endpoint(`standing-${randomUUID().slice(0, 6)}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: live.liveKey, body: { url: ep.url, events: ["record.status_changed"] } });
    expect(hook.status, hook.text).toBe(201);
    ep.setSecret(hook.body.secret);
  }
  const r = await call("POST", "/api/v1/records", {
    key: live.liveKey,
    body: {
      subject: OPERATOR, claim_type: "verified_listing", claim: `${OPERATOR} runs listing 88.`, visibility: "public",
      evidence: {
        operator: OPERATOR, listing_url: `https://${d.domain}/listing/88`, domain: d.domain,
        payee: { type: "wallet", value: w.address, network: "ethereum" }, domain_record: d.id, payee_record: w.id,
      },
    },
  });
  expect(r.status, r.text).toBe(201);
  expect(r.body).toMatchObject({ status: "active", verified: true });
  return { live, d, w, id: r.body.verification_id as string, ep };
}

async function signedStatus(id: string) {
  const { status_signature, ...signed } = (await call("GET", `/api/v1/records/${id}/status`)).body;
  expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
  return signed;
}

const lifecycle = (key: string, id: string, operation: string, reason = "Changed by the owner.") =>
  call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation, reason } });
const record = async (key: string, id: string) => (await call("GET", `/api/v1/records/${id}`, { key })).body;
const lastHistory = async (key: string, id: string) => (await record(key, id)).lifecycle.history.at(-1);

const staffAct = (c: Client, id: string, form: Record<string, string>) =>
  serverAction(c, `/review/${id}`, ["app/review/staff-actions.ts", "staffRecordAction"], { form: { id, ...form } });

describe("a listing follows its parts", () => {
  it("is suspended by the system the moment its domain record lapses, the part named, and announced; the owner cannot lift it", async () => {
    const { live, d, id, ep } = await verifiedListing(true);
    expect((await lifecycle(live.liveKey, d.id, "suspend", "Domain in transfer.")).status).toBe(200);
    // No window: the listing's status moved in the part's own transaction.
    const st = await signedStatus(id);
    expect(st).toMatchObject({ status: "suspended", verified: false });
    expect(st.parts).toEqual(expect.arrayContaining([{ role: "domain_record", verification_id: d.id, standing: "lapsed" }]));
    expect(await lastHistory(live.liveKey, id)).toMatchObject({
      status: "suspended", by: "system", reason: `Part domain_record ${d.id} is no longer active (suspended).`,
    });
    const evt = await waitFor(() => ep!.received().find((e) => e.body.data?.record?.verification_id === id && e.body.data.operation === "suspend"));
    expect(evt.body.data).toMatchObject({ previous_status: "active", part: d.id, record: { verification_id: id, status: "suspended" } });
    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain(`Part domain_record ${d.id} is no longer active (suspended).`);

    const refused = await lifecycle(live.liveKey, id, "reinstate");
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("suspended_by_system");

    // The part stands again: the system reinstates the listing, and says so.
    expect((await lifecycle(live.liveKey, d.id, "reinstate", "Transfer done.")).status).toBe(200);
    expect(await signedStatus(id)).toMatchObject({ status: "active", verified: true });
    expect(await lastHistory(live.liveKey, id)).toMatchObject({ status: "active", by: "system" });
    const back = await waitFor(() => ep!.received().find((e) => e.body.data?.record?.verification_id === id && e.body.data.operation === "reinstate"));
    expect(back.body.data).toMatchObject({ previous_status: "suspended", part: d.id, record: { status: "active" } });

    // A revoked part never recovers: the listing stays suspended, the part named as revoked.
    expect((await lifecycle(live.liveKey, d.id, "revoke", "Domain sold.")).status).toBe(200);
    expect((await signedStatus(id)).status).toBe("suspended");
    expect((await lastHistory(live.liveKey, id)).reason).toBe(`Part domain_record ${d.id} is no longer active (revoked).`);
  });

  it("the owner's own suspension is neither lifted by the system nor lifted while a part is lapsed", async () => {
    const { live, d, id } = await verifiedListing();
    expect((await lifecycle(live.liveKey, id, "suspend", "Paused for the winter.")).status).toBe(200);
    expect((await lifecycle(live.liveKey, d.id, "suspend", "Domain in transfer.")).status).toBe(200);
    expect(await lastHistory(live.liveKey, id)).toMatchObject({ status: "suspended", by: "owner", reason: "Paused for the winter." });
    const early = await lifecycle(live.liveKey, id, "reinstate");
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "invalid_transition" });
    expect(early.body.error.message).toContain(`Part domain_record ${d.id} is no longer active (suspended).`);
    expect((await lifecycle(live.liveKey, d.id, "reinstate", "Transfer done.")).status).toBe(200);
    expect((await signedStatus(id)).status).toBe("suspended"); // not the system's to lift
    expect((await lifecycle(live.liveKey, id, "reinstate", "Open again.")).status).toBe(200);
    expect((await signedStatus(id)).status).toBe("active");
  });

  it("a re-check lapse (TXT record gone) suspends the domain and the listing; both come back when the record is back", async () => {
    const { live, d, id } = await verifiedListing();
    setDns(d.txtName, null);
    const lapsed = await untilRechecked("the re-check to suspend the domain and the listing", d.id, async () => {
      const st = await signedStatus(id);
      return st.status === "suspended" ? st : null;
    }, 30_000);
    expect(lapsed.parts).toEqual(expect.arrayContaining([{ role: "domain_record", verification_id: d.id, standing: "lapsed" }]));
    expect((await signedStatus(d.id)).status).toBe("suspended");
    expect((await lastHistory(live.liveKey, id)).reason).toBe(`Part domain_record ${d.id} is no longer active (suspended).`);
    // Neither suspension is the owner's to lift.
    expect((await lifecycle(live.liveKey, d.id, "reinstate")).body.error.code).toBe("suspended_by_system");
    expect((await lifecycle(live.liveKey, id, "reinstate")).body.error.code).toBe("suspended_by_system");
    setDns(d.txtName, [d.txtValue]);
    await untilRechecked("the re-check to reinstate the domain and the listing", d.id, async () => (await signedStatus(id)).status === "active", 30_000);
    expect((await signedStatus(d.id)).status).toBe("active");
  });
});

describe("staff actions", () => {
  it("the operator CLI suspends and reinstates any record with a public reason; the owner cannot lift it, nor can the system", async () => {
    const { live, d, id, ep } = await verifiedListing(true);
    const reason = "Reported as a scam; under investigation.";
    expect(await admin("record", "suspend", "--id", id, "--reason", reason)).toMatchObject({ record_id: id, status: "suspended" });
    expect((await signedStatus(id)).status).toBe("suspended");
    expect(await lastHistory(live.liveKey, id)).toMatchObject({ status: "suspended", by: "staff", reason });
    const evt = await waitFor(() => ep!.received().find((e) => e.body.data?.record?.verification_id === id && e.body.data.operation === "suspend"));
    expect(evt.body.data).toMatchObject({ previous_status: "active", record: { status: "suspended" } });
    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain(`Suspended by Proof Records: ${reason}`);

    const refused = await lifecycle(live.liveKey, id, "reinstate");
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("suspended_by_staff");
    // A part lapsing and coming back does not lift a staff suspension.
    expect((await lifecycle(live.liveKey, d.id, "suspend", "Domain in transfer.")).status).toBe(200);
    expect((await lifecycle(live.liveKey, d.id, "reinstate", "Transfer done.")).status).toBe(200);
    expect(await lastHistory(live.liveKey, id)).toMatchObject({ status: "suspended", by: "staff" });

    expect(await admin("record", "reinstate", "--id", id, "--reason", "Investigation closed: the listing is genuine.")).toMatchObject({ status: "active" });
    expect(await signedStatus(id)).toMatchObject({ status: "active", verified: true });

    // Reasons are public: bidi controls and zero-width characters are refused; so is a move the lifecycle does not allow.
    await expect(admin("record", "suspend", "--id", id, "--reason", "Scam \u202Egnp.exe")).rejects.toThrow(/bidirectional/);
    await expect(admin("record", "reinstate", "--id", id, "--reason", "Nothing to lift.")).rejects.toThrow(/invalid_transition/);
    await expect(admin("record", "revoke", "--id", "PRS-00000000000000000000", "--reason", "No such record.")).rejects.toThrow(/record_not_found/);

    // Staff revoke the domain record: the listing follows; the certificate says Proof Records revoked it.
    expect(await admin("record", "revoke", "--id", d.id, "--reason", "The domain was taken over.")).toMatchObject({ status: "revoked" });
    expect((await call("GET", `/r/${d.id}`)).text).toContain("Revoked by Proof Records: The domain was taken over.");
    expect((await signedStatus(id)).status).toBe("suspended");
    expect((await lastHistory(live.liveKey, id)).reason).toBe(`Part domain_record ${d.id} is no longer active (revoked).`);
  });

  it("a reviewer acts from the console's record page (audited); a customer cannot", async () => {
    const { live, id } = await verifiedListing();
    const rev = await staffSession("reviewer", "staffact");
    const page = await portalPage(rev, `/review/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="staff-suspend"');

    const short = await staffAct(rev, id, { operation: "suspend", reason: "no" });
    expect(short.text).toContain("3 to 500 characters");
    expect((await signedStatus(id)).status).toBe("active");
    const done = await staffAct(rev, id, { operation: "suspend", reason: "Payee reported as fraudulent." });
    expect(done.status).toBe(200);
    expect((await signedStatus(id)).status).toBe("suspended");
    expect(await lastHistory(live.liveKey, id)).toMatchObject({ by: "staff", reason: "Payee reported as fraudulent." });
    const after = await portalPage(rev, `/review/${id}`);
    expect(after.html).toContain("staff_suspend");
    expect(after.html).toContain('data-testid="staff-reinstate"');

    const noConfirm = await staffAct(rev, id, { operation: "revoke", reason: "Confirmed fraud." });
    expect(noConfirm.text).toContain("cannot be undone");
    expect((await signedStatus(id)).status).toBe("suspended");

    const customer = await staffSession(null, "staffact");
    const denied = await staffAct(customer, id, { operation: "reinstate", reason: "Let me back in." });
    expect(denied.text).toContain("Only reviewers and admins");
    expect((await portalPage(customer, `/review/${id}`)).status).toBe(403);

    const revoked = await staffAct(rev, id, { operation: "revoke", reason: "Confirmed fraud.", confirm_revoke: "on" });
    expect(revoked.status).toBe(200);
    expect((await signedStatus(id)).status).toBe("revoked");
    expect((await call("GET", `/r/${id}`)).text).toContain("Revoked by Proof Records: Confirmed fraud.");
  });

  it("a reviewer suspends a reported record from the report, which closes it", async () => {
    const { id } = await verifiedListing();
    const visitor: Client = { base: inject("baseUrl"), ip: nextIp() };
    const sent = await serverAction(visitor, `/r/${id}`, ["app/r/[id]/actions.ts", "reportAction"], {
      form: { record_id: id, message: "This listing took my deposit and vanished.", contact: "" },
    });
    expect(sent.status).toBe(200);
    const report = (await admin("reports", "list")).reports.find((r: { record_id: string }) => r.record_id === id);
    expect(report).toBeTruthy();
    const rev = await staffSession("admin", "staffact");
    const reports = await portalPage(rev, "/review/reports");
    expect(reports.html).toContain(`data-record="${id}"`);

    const r = await serverAction(rev, "/review/reports", ["app/review/staff-actions.ts", "staffRecordAction"], {
      form: { id, report_id: report.id, operation: "suspend", reason: "Reported: deposit taken, listing vanished." },
    });
    expect(r.status).toBe(200);
    expect((await signedStatus(id)).status).toBe("suspended");
    expect((await call("GET", `/r/${id}`)).text).toContain("Suspended by Proof Records: Reported: deposit taken, listing vanished.");
    expect((await admin("reports", "list")).reports.some((x: { id: string }) => x.id === report.id)).toBe(false);
    // The same report cannot be answered twice.
    const again = await serverAction(rev, "/review/reports", ["app/review/staff-actions.ts", "staffRecordAction"], {
      form: { id, report_id: report.id, operation: "revoke", reason: "Second go.", confirm_revoke: "on" },
    });
    expect(again.text).toContain("already closed");
    expect((await signedStatus(id)).status).toBe("suspended");
  });

  it("staff never act on their own account's records: 403 own_account in the console and at the CLI; another staff member can", async () => {
    // The attacker is a reviewer whose own account's record the service (here the operator) suspended.
    const rev = await staffSession("reviewer", "own-rev");
    const key = (await admin("key", "create", "--account", rev.accountId, "--env", "sandbox")).key as string;
    const id = (await issue(key)).verification_id as string;
    expect(await admin("record", "suspend", "--id", id, "--reason", "Reported; under investigation.")).toMatchObject({ status: "suspended" });
    const page = await portalPage(rev, `/review/${id}`);
    expect(page.html).toContain("This record belongs to your own account: another staff member must act on it.");
    expect(page.html).not.toContain('name="operation"');
    const own = await staffAct(rev, id, { operation: "reinstate", reason: "Looks fine to me." });
    expect(own.text).toContain("your own account");
    await expect(admin("record", "reinstate", "--id", id, "--by", rev.accountId, "--reason", "Looks fine to me.")).rejects.toThrow(/own_account/);
    await expect(admin("record", "revoke", "--id", id, "--by", rev.accountId, "--reason", "Hiding it.")).rejects.toThrow(/own_account/);
    expect((await signedStatus(id)).status).toBe("suspended");
    expect(await lastHistory(key, id)).toMatchObject({ status: "suspended", by: "staff", reason: "Reported; under investigation." });
    // Another reviewer can.
    const other = await staffSession("reviewer", "other-rev");
    const ok = await staffAct(other, id, { operation: "reinstate", reason: "Investigation closed." });
    expect(ok.status).toBe(200);
    expect((await signedStatus(id)).status).toBe("active");
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { admin, call, newAccount, newLiveAccount, uniqueEmail, until } from "../helpers";
import { randomLei, setLeiRecord } from "../lei-register";
import { mailsTo, mailTo } from "../mail-capture";
import { allEvents, untilDelivered, type ApiEvent } from "../outbox";
import { serverAction, staffSession } from "../portal-client";
import { domainRecord } from "../proved-records";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * Impersonation watches (issue 31 item 2; docs/api.md "Impersonation watches"). An owner
 * watches its domain and IBAN; an imposter account issues a live public record on a Cyrillic
 * look-alike of the domain and a listing paid to the exact IBAN (approved by a reviewer). Each
 * fires `watch.matched` exactly once — delivered to the watcher's webhook and verified with
 * the standardwebhooks library (tests/webhook-receiver.ts), carrying the record — and a mail
 * arrives with the certificate link. The watcher's own records and sandbox records never fire;
 * another account can neither see nor delete the watch.
 *
 * "Fires nothing" is read after a fact, never after a fixed wait: the watches take issued
 * records and renames from the outbox once their write commits (lib/watches/watch-subscriber.ts),
 * writing each match's `watch.matched` event and queueing its mail in one transaction, in the
 * order they were queued — so once a sentinel issued later has fired (`watchesCaughtUp`), the
 * watcher's events list is complete for everything before it; the receiver's side is checked
 * once every event has been delivered (tests/outbox.ts).
 */
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

/** A live account whose email the test knows (for the mail). */
async function liveAccountWithEmail(tag: string) {
  const email = uniqueEmail(tag);
  const a = await admin("account", "create", "--email", email);
  await admin("account", "confirm-email", "--account", a.account_id);
  await admin("plan", "set", "--account", a.account_id, "--plan", "growth");
  const k = await admin("key", "create", "--account", a.account_id, "--env", "live");
  return { accountId: a.account_id as string, sandboxKey: a.sandbox_key as string, liveKey: k.key as string, email };
}

/** A German IBAN with fresh digits, its check digits computed here (ISO 13616 mod 97), not by the service. */
function freshIban(): string {
  const bban = Array.from({ length: 18 }, () => Math.floor(Math.random() * 10)).join("");
  const numeric = `${bban}DE00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const check = 98n - (BigInt(numeric) % 97n);
  return `DE${String(check).padStart(2, "0")}${bban}`;
}

const createWatch = (key: string, kind: string, value: string) => call("POST", "/api/v1/watches", { key, body: { kind, value } });

let sentinel: { name: string; watcherKey: string; issuerKey: string } | undefined;
/**
 * Wait until the watches have taken every record issued and every account renamed so far: the
 * test server's one outbox worker takes tasks in the order they were queued, one at a time, so
 * when a record issued now has fired a sentinel watch of its own, every task before it is done.
 */
async function watchesCaughtUp() {
  if (!sentinel) {
    const name = `Sentinel ${randomUUID().slice(0, 8)} Ltd`;
    const watcher = await newLiveAccount();
    expect((await createWatch(watcher.liveKey, "name", name)).status).toBe(201);
    sentinel = { name, watcherKey: watcher.liveKey, issuerKey: (await newLiveAccount()).liveKey };
  }
  const { name, watcherKey, issuerKey } = sentinel;
  const r = await call("POST", "/api/v1/records", { key: issuerKey, body: { subject: name, claim_type: "company_status", claim: `${name} is active.`, visibility: "public" } });
  expect(r.status, r.text).toBe(201);
  await until("the sentinel record's watch.matched event", async () =>
    (await allEvents(watcherKey, { type: "watch.matched", record_id: r.body.verification_id })).length > 0, 15_000);
}

/** The watcher's `watch.matched` events, oldest first: complete for what was issued before `watchesCaughtUp()` returned. */
const matchedEvents = (liveKey: string) => allEvents(liveKey, { type: "watch.matched" });
/** A match as "watch record how field", from an event's or a delivery's `data`. */
const matchLine = (data: ApiEvent["data"]) => `${data.watch.id} ${data.record.verification_id} ${data.match.how} ${data.match.field}`;

describe("watches: add, list, delete", () => {
  it("normalises each kind, answers the same value with the watch it has, and refuses bad input with stable codes", async () => {
    const a = await newAccount("watch");
    const d = await createWatch(a.sandboxKey, "domain", "https://www.Shop.Example-Watch.co.uk/path");
    expect(d.status, d.text).toBe(201);
    expect(d.body).toMatchObject({ object: "watch", kind: "domain", match_key: "example-watch.co.uk", origin: "user", recent_matches: [] });
    expect(d.body.id).toMatch(/^wat_[0-9a-z]{20}$/);
    const again = await createWatch(a.sandboxKey, "domain", "example-watch.co.uk");
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(d.body.id);

    const iban = freshIban();
    const i = await createWatch(a.sandboxKey, "iban", iban.replace(/(.{4})/g, "$1 ").toLowerCase());
    expect(i.status, i.text).toBe(201);
    expect(i.body.match_key).toBe(iban);
    const n = await createWatch(a.sandboxKey, "name", "  ＡＣＭＥ   Widgets\tLtd ");
    expect(n.body.match_key).toBe("acme widgets ltd");
    const lei = randomLei();
    expect((await createWatch(a.sandboxKey, "lei", lei.toLowerCase())).body.match_key).toBe(lei);
    const w = await createWatch(a.sandboxKey, "wallet", "0x52908400098527886E0F7030069857D2E4169EE7");
    expect(w.body.match_key).toBe("0x52908400098527886e0f7030069857d2e4169ee7");

    const bad = async (body: unknown) => {
      const r = await call("POST", "/api/v1/watches", { key: a.sandboxKey, body });
      expect(r.status, r.text).toBe(422);
      return r.body.error.code as string;
    };
    expect(await bad({ kind: "phone", value: "123" })).toBe("invalid_value");
    expect(await bad({ kind: "iban", value: "DE89 3704 0044 0532 0130 01" })).toBe("invalid_iban");
    expect(await bad({ kind: "lei", value: `${lei.slice(0, 18)}${lei.endsWith("00") ? "01" : "00"}` })).toBe("invalid_lei");
    expect(await bad({ kind: "domain", value: "localhost" })).toBe("invalid_domain");
    expect(await bad({ kind: "domain", value: "co.uk" })).toBe("invalid_domain");
    expect(await bad({ kind: "wallet", value: "0x1234" })).toBe("invalid_address");
    expect(await bad({ kind: "name", value: "  " })).toBe("invalid_name");
    expect(await bad({ kind: "name" })).toBe("missing_field");
    expect(await bad({ kind: "name", value: "Acme", extra: 1 })).toBe("unknown_field");

    const list = await call("GET", "/api/v1/watches", { key: a.sandboxKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { kind: string }) => x.kind).sort()).toEqual(["domain", "iban", "lei", "name", "wallet"]);

    // Another account: sees none of them and cannot delete them (404, the same as an id that does not exist).
    const b = await newAccount("watch");
    expect((await call("GET", "/api/v1/watches", { key: b.sandboxKey })).body.data).toEqual([]);
    const foreign = await call("DELETE", `/api/v1/watches/${d.body.id}`, { key: b.sandboxKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("watch_not_found");
    expect((await call("DELETE", "/api/v1/watches/wat_00000000000000000000", { key: a.sandboxKey })).status).toBe(404);
    expect((await call("DELETE", "/api/v1/watches/not-an-id", { key: a.sandboxKey })).status).toBe(404);

    const del = await call("DELETE", `/api/v1/watches/${d.body.id}`, { key: a.sandboxKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ object: "watch", id: d.body.id, deleted: true });
    expect((await call("DELETE", `/api/v1/watches/${d.body.id}`, { key: a.sandboxKey })).status).toBe(404);
    expect((await call("GET", "/api/v1/watches", { key: a.sandboxKey })).body.data).toHaveLength(4);
  });

  it("an account has at most 200 watches: the next is 422 watch_limit_reached", async () => {
    const a = await newAccount("limit");
    for (let i = 0; i < 200; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => createWatch(a.sandboxKey, "name", `Limit test ${i + j}`)));
    }
    const over = await createWatch(a.sandboxKey, "name", "Limit test 200");
    expect(over.status, over.text).toBe(422);
    expect(over.body.error.code).toBe("watch_limit_reached");
    // The same value as one it has is still answered (nothing is added).
    expect((await createWatch(a.sandboxKey, "name", "limit TEST 7")).status).toBe(200);
  });
});

describe("an imposter's records fire the owner's watches once, with the record", () => {
  const tag = randomUUID().replace(/-/g, "").slice(0, 8);
  const realDomain = `watcha${tag}.com`; // an "a" to swap for a Cyrillic one
  const lookAlike = realDomain.replace("a", "\u0430"); // Cyrillic а: wаtcha….com
  const iban = freshIban();
  let owner: Awaited<ReturnType<typeof liveAccountWithEmail>>;
  let imposter: Awaited<ReturnType<typeof newLiveAccount>>;
  let ep: ReturnType<typeof rx.endpoint>;
  let hookId: string;
  let domainWatch: string;
  let ibanWatch: string;
  let fakeDomainId: string;
  let fakeListingId: string;

  const matched = () => ep.processed().filter((e) => e.type === "watch.matched");
  /** The record ids of the owner's watch.matched events so far (one per firing). */
  const firedFor = async () => (await matchedEvents(owner.liveKey)).map((e) => e.data.record.verification_id as string);
  /** Wait until every event of the owner has reached its endpoint: after that nothing more can arrive there. */
  const delivered = () => untilDelivered(owner.accountId, [hookId]);

  beforeAll(async () => {
    owner = await liveAccountWithEmail("owner");
    imposter = await newLiveAccount();
    // A listing speaks only for its own verified organisation: the imposter is one, under its own name, and lists a payee that is not its own.
    await admin("organisation", "verify", "--account", imposter.accountId, "--legal-name", `Seaview Lettings ${tag} Ltd`);
    ep = rx.endpoint(`watch-${tag}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: owner.liveKey, body: { url: ep.url, events: ["watch.matched"] } });
    expect(hook.status, hook.text).toBe(201);
    ep.setSecret(hook.body.secret);
    hookId = hook.body.id;
    domainWatch = (await createWatch(owner.liveKey, "domain", realDomain)).body.id;
    ibanWatch = (await createWatch(owner.liveKey, "iban", iban)).body.id;
    expect(domainWatch).toBeTruthy();
    expect(ibanWatch).toBeTruthy();
  });

  it("a domain record on a Cyrillic look-alike fires the domain watch (confusable), signed, with the record; a mail names the certificate", async () => {
    const r = await domainRecord(imposter.liveKey, lookAlike);
    fakeDomainId = r.id;
    const evt = await waitFor(() => matched().find((e) => e.body.data.record.verification_id === fakeDomainId), 15_000);
    expect(evt.body).toMatchObject({
      type: "watch.matched", environment: "live",
      data: {
        watch: { id: domainWatch, kind: "domain", value: realDomain },
        match: { how: "confusable", field: "subject" },
        record: { verification_id: fakeDomainId, claim_type: "domain_ownership", status: "active" },
      },
    });
    expect(evt.body.data.match.value).not.toBe(realDomain);
    // The record as the public sees it (its signed status's fields), not the owner's view.
    expect(evt.body.data.record).toMatchObject({ certificate_url: expect.stringContaining(`/r/${fakeDomainId}`), covers_hosts: expect.any(Array) });
    expect(evt.body.data.record).not.toHaveProperty("links");
    expect(evt.body.data.record).not.toHaveProperty("lifecycle");
    // The mail, with the certificate link.
    const mail = await waitFor(() => mailTo(inject("mailDir"), owner.email, /Subject: Impersonation watch/), 15_000);
    expect(mail).toContain(`/r/${fakeDomainId}`);
  });

  it("a listing paid to the exact IBAN fires when a reviewer approves it (exact)", async () => {
    const d = await domainRecord(imposter.liveKey, `listing-${tag}.example.org`);
    const sub = await call("POST", "/api/v1/records", {
      key: imposter.liveKey,
      body: {
        subject: "Seaview Apartments", claim_type: "verified_listing", claim: "Seaview Apartments runs listing 9.", visibility: "public",
        evidence: {
          operator: `Seaview Lettings ${tag} Ltd`, listing_url: `https://${d.domain}/listing/9`, domain: d.domain, domain_record: d.id,
          payee: { type: "iban", value: iban.toLowerCase(), account_name: "Seaview Apartments" },
        },
      },
    });
    expect(sub.status, sub.text).toBe(202);
    fakeListingId = sub.body.verification_id;
    // Pending: nothing yet (a submission is not handed to the watches until it is issued).
    await watchesCaughtUp();
    expect(await firedFor()).not.toContain(fakeListingId);
    await delivered();
    expect(matched().some((e) => e.body.data.record.verification_id === fakeListingId)).toBe(false);
    const rev = await staffSession("reviewer", "watchrev");
    const decided = await serverAction(rev, `/review/${fakeListingId}`, ["app/review/actions.ts", "decideAction"], {
      form: { id: fakeListingId, decision: "approve", checklist: ["parts_confirmed", "listing_matches"] },
    });
    expect(decided.status, decided.text).toBe(200);
    const evt = await waitFor(() => matched().find((e) => e.body.data.record.verification_id === fakeListingId), 15_000);
    expect(evt.body.data).toMatchObject({
      watch: { id: ibanWatch, kind: "iban", value: iban },
      match: { how: "exact", value: iban, field: "evidence.payee.value" },
      record: { verification_id: fakeListingId, status: "active", evidence_level: "evidence_verified" },
    });
  });

  it("a status change of a matched record does not fire again; the list shows each match once", async () => {
    const lc = (id: string, operation: string) =>
      call("POST", `/api/v1/records/${id}/lifecycle`, { key: imposter.liveKey, body: { operation, reason: `test ${operation}` } });
    expect((await lc(fakeDomainId, "suspend")).status).toBe(200);
    expect((await lc(fakeDomainId, "reinstate")).status).toBe(200);
    // The imposter proves the same look-alike again: a new record, so it fires once more — for that record only.
    const again = await domainRecord(imposter.liveKey, `shop.${lookAlike}`);
    await waitFor(() => matched().find((e) => e.body.data.record.verification_id === again.id), 15_000);
    // Every firing so far is an event (a status change hands nothing to the watches; `again` fired, so all before it were taken) ...
    const fired = await firedFor();
    const times = (ids: string[], id: string) => ids.filter((x) => x === id).length;
    expect([fakeDomainId, fakeListingId, again.id].map((id) => times(fired, id))).toEqual([1, 1, 1]);
    expect(fired).toHaveLength(3);
    // ... and once each has reached the endpoint, nothing more is on its way there.
    await delivered();
    const per = (id: string) => matched().filter((e) => e.body.data.record.verification_id === id).length;
    expect(per(fakeDomainId)).toBe(1);
    expect(per(fakeListingId)).toBe(1);
    expect(per(again.id)).toBe(1);
    expect(matched()).toHaveLength(3);
    const list = await call("GET", "/api/v1/watches", { key: owner.liveKey });
    const dw = list.body.data.find((w: { id: string }) => w.id === domainWatch);
    expect(dw.recent_matches.map((m: { verification_id: string }) => m.verification_id).sort()).toEqual([fakeDomainId, again.id].sort());
    expect(dw.recent_matches[0]).toMatchObject({ how: "confusable", certificate_url: expect.stringContaining("/r/") });
  });

  it("the watcher's own record and a sandbox record never fire", async () => {
    const own = await domainRecord(owner.liveKey, realDomain);
    const sandbox = await domainRecord(imposter.sandboxKey, `x${tag}.${realDomain}`);
    // Neither fired: no event, once the watches have taken everything issued so far ...
    await watchesCaughtUp();
    const fired = await firedFor();
    expect(fired).not.toContain(own.id);
    expect(fired).not.toContain(sandbox.id);
    // ... so no mail either (a watch's mail is queued with its event, in one transaction) ...
    const watchMails = mailsTo(inject("mailDir"), owner.email).filter((m) => /Subject: Impersonation watch/.test(m));
    expect(watchMails.length).toBeGreaterThan(0); // the look-alikes' ones
    for (const id of [own.id, sandbox.id]) expect(watchMails.filter((m) => m.includes(`/r/${id}`))).toEqual([]);
    // ... and, once everything raised has been delivered, nothing at the endpoint.
    await delivered();
    const ids = matched().map((e) => e.body.data.record.verification_id);
    expect(ids).not.toContain(own.id);
    expect(ids).not.toContain(sandbox.id);
  });

  it("a new watch fires at once for a live record that already carries the exact value", async () => {
    const later = await liveAccountWithEmail("later");
    const w = await createWatch(later.liveKey, "iban", iban);
    expect(w.status, w.text).toBe(201);
    expect(w.body.recent_matches).toEqual([expect.objectContaining({ verification_id: fakeListingId, how: "exact" })]);
    const events = await call("GET", "/api/v1/events?type=watch.matched", { key: later.liveKey });
    expect(events.status, events.text).toBe(200);
    expect(events.text).toContain(fakeListingId);
  });
});

describe("names and LEIs, through a batch", () => {
  it("a batch's company records fire name (exact and a look-alike) and LEI watches, once each; the batch's other rows fire nothing", async () => {
    const tag = randomUUID().slice(0, 6);
    const legalName = `Batchwatch ${tag} Holdings Ltd`;
    const lookAlikeName = legalName.replace("a", "\u0430"); // Cyrillic а
    const lei = randomLei();
    const lei2 = randomLei();
    const { recordsFile } = inject("leiRegister");
    setLeiRecord(recordsFile, lei, { legalName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    setLeiRecord(recordsFile, lei2, { legalName: lookAlikeName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    const owner = await newLiveAccount();
    const ep = rx.endpoint(`batch-${tag}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: owner.liveKey, body: { url: ep.url, events: ["watch.matched"] } });
    ep.setSecret(hook.body.secret);
    const nameWatch = (await createWatch(owner.liveKey, "name", legalName.toUpperCase())).body.id;
    const leiWatch = (await createWatch(owner.liveKey, "lei", lei)).body.id;

    const imposter = await newLiveAccount();
    const company = (subject: string, l: string) => ({ subject, claim_type: "company_identity", claim: `${subject} holds LEI ${l}.`, visibility: "public", evidence: { lei: l } });
    const batch = await call("POST", "/api/v1/records/batch", {
      key: imposter.liveKey,
      body: { records: [company(legalName, lei), company(lookAlikeName, lei2), { subject: "Unrelated Ltd", claim_type: "company_status", claim: "Unrelated Ltd is active.", visibility: "public" }] },
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.totals.issued, batch.text).toBe(3);
    const [exactId, lookAlikeId, otherId] = batch.body.results.map((r: { verification_id: string }) => r.verification_id);
    const events = () => ep.processed().filter((e) => e.type === "watch.matched");
    const expected = [
      `${leiWatch} ${exactId} exact evidence.lei`,
      `${nameWatch} ${exactId} exact subject`,
      `${nameWatch} ${lookAlikeId} confusable subject`,
    ].sort();
    // The matches are events: all there, and only these, once the watches have taken the batch ...
    await watchesCaughtUp();
    const fired = (await matchedEvents(owner.liveKey)).map((e) => matchLine(e.data)).sort();
    expect(fired).toEqual(expected);
    // ... and delivered, each once: nothing else is on its way.
    await untilDelivered(owner.accountId, [hook.body.id]);
    const got = events().map((e) => matchLine(e.body.data)).sort();
    expect(got).toEqual(expected);
    expect(got.join()).not.toContain(otherId);
    // A private record carrying the same name and LEI never fires.
    const hidden = await call("POST", "/api/v1/records", { key: imposter.liveKey, body: { ...company(legalName, lei), visibility: "private" } });
    expect(hidden.status, hidden.text).toBe(201);
    await watchesCaughtUp();
    const firedSince = (await matchedEvents(owner.liveKey)).map((e) => e.data.record.verification_id);
    expect(firedSince).not.toContain(hidden.body.verification_id);
    expect(firedSince).toHaveLength(3);
    await untilDelivered(owner.accountId, [hook.body.id]);
    expect(events().map((e) => e.body.data.record.verification_id)).not.toContain(hidden.body.verification_id);
    expect(events()).toHaveLength(3);
  });
});

describe("who the record says is speaking", () => {
  it("an account calling itself by a look-alike of a watched name, and an agent naming the watched company as its principal, fire the name watch", async () => {
    const tag = randomUUID().slice(0, 6);
    const name = `Speakwatch ${tag} Trading Ltd`;
    const owner = await newLiveAccount();
    const ep = rx.endpoint(`speaker-${tag}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: owner.liveKey, body: { url: ep.url, events: ["watch.matched"] } });
    ep.setSecret(hook.body.secret);
    const watch = (await createWatch(owner.liveKey, "name", name)).body.id;

    const imposter = await newLiveAccount();
    const renamed = await call("PATCH", "/api/v1/account", { key: imposter.liveKey, body: { name: name.replace("a", "\u0430") } }); // Cyrillic а
    expect(renamed.status, renamed.text).toBe(200);
    const statement = await call("POST", "/api/v1/records", {
      key: imposter.liveKey, body: { subject: "Some Other Ltd", claim_type: "company_status", claim: "Some Other Ltd is active.", visibility: "public" },
    });
    expect(statement.status, statement.text).toBe(201);
    const agent = await call("POST", "/api/v1/records", {
      key: (await newLiveAccount()).liveKey,
      body: {
        subject: `agent-${tag}`, claim_type: "agent_authorization", claim: `agent-${tag} may pay approved invoices.`, visibility: "public",
        principal: name, agent_id: `agent-${tag}`, act: "pay_invoices", scope: { asset: "USDC", max_amount: "250.00", network: "base" },
        session_id: "sess-1", valid_until: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    expect(agent.status, agent.text).toBe(201);
    const events = () => ep.processed().filter((e) => e.type === "watch.matched");
    const expected = [
      `${watch} ${statement.body.verification_id} confusable account.name`,
      `${watch} ${agent.body.verification_id} exact evidence.principal`,
    ].sort();
    // Exactly these two matches, once the watches have taken the rename and the records ...
    await watchesCaughtUp();
    expect((await matchedEvents(owner.liveKey)).map((e) => matchLine(e.data)).sort()).toEqual(expected);
    // ... and delivered once each, nothing else on its way.
    await untilDelivered(owner.accountId, [hook.body.id]);
    expect(events().map((e) => matchLine(e.body.data)).sort()).toEqual(expected);
  });
});

describe("an account renamed to a watched name", () => {
  it("fires the watch with its newest live public record, once; an account with no such record fires nothing", async () => {
    const tag = randomUUID().slice(0, 6);
    const name = `Renamewatch ${tag} Ltd`;
    const owner = await newLiveAccount();
    const ep = rx.endpoint(`rename-${tag}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: owner.liveKey, body: { url: ep.url, events: ["watch.matched"] } });
    ep.setSecret(hook.body.secret);
    const watch = (await createWatch(owner.liveKey, "name", name)).body.id;

    const empty = await newLiveAccount(); // no live public record: renaming fires nothing
    expect((await call("PATCH", "/api/v1/account", { key: empty.liveKey, body: { name } })).status).toBe(200);
    const imposter = await newLiveAccount();
    const issue = (subject: string) => call("POST", "/api/v1/records", {
      key: imposter.liveKey, body: { subject, claim_type: "company_status", claim: `${subject} is active.`, visibility: "public" },
    });
    expect((await issue("First Innocuous Ltd")).status).toBe(201);
    const newest = await issue("Second Innocuous Ltd");
    expect(newest.status, newest.text).toBe(201);
    // Nothing watched yet: no match event, once the watches have taken the renaming of `empty` and these records ...
    await watchesCaughtUp();
    expect(await matchedEvents(owner.liveKey)).toEqual([]);
    await untilDelivered(owner.accountId, [hook.body.id]);
    expect(ep.processed().filter((e) => e.type === "watch.matched")).toHaveLength(0); // ... and none delivered
    const renamed = await call("PATCH", "/api/v1/account", { key: imposter.liveKey, body: { name: name.toUpperCase() } });
    expect(renamed.status, renamed.text).toBe(200);
    const events = () => ep.processed().filter((e) => e.type === "watch.matched");
    await waitFor(() => events().length >= 1, 15_000);
    // The same name again changes nothing: that record already fired this watch (no second event,
    // once the watches have taken that rename too) ...
    expect((await call("PATCH", "/api/v1/account", { key: imposter.liveKey, body: { name } })).status).toBe(200);
    await watchesCaughtUp();
    const once = [`${watch} ${newest.body.verification_id} exact account.name`];
    expect((await matchedEvents(owner.liveKey)).map((e) => matchLine(e.data))).toEqual(once);
    // ... and with everything delivered, the endpoint got that one.
    await untilDelivered(owner.accountId, [hook.body.id]);
    expect(events().map((e) => matchLine(e.body.data))).toEqual(once);
  });
});

describe("default watches of a verified organisation", () => {
  it("its legal name, LEI and proved domains are watched (origin default); a domain proved later too; the owner can delete them", async () => {
    const tag = randomUUID().slice(0, 6);
    const legalName = `Defaultwatch ${tag} Holdings Ltd`;
    const lei = randomLei();
    setLeiRecord(inject("leiRegister").recordsFile, lei, { legalName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    const org = await newLiveAccount();
    const d = await domainRecord(org.liveKey, `defaultwatch-${tag}.net`);
    await admin("organisation", "verify", "--account", org.accountId, "--legal-name", legalName, "--lei", lei, "--jurisdiction", "GB", "--domains", d.domain);
    let list = (await call("GET", "/api/v1/watches", { key: org.liveKey })).body.data as { id: string; kind: string; match_key: string; origin: string }[];
    expect(list.map((w) => `${w.origin} ${w.kind} ${w.match_key}`).sort()).toEqual([
      `default domain defaultwatch-${tag}.net`, `default lei ${lei}`, `default name ${legalName.toLowerCase()}`,
    ]);
    const later = await domainRecord(org.liveKey, `defaultwatch2-${tag}.org`);
    await watchesCaughtUp(); // the watches add a proved domain as the record is handed to them
    list = (await call("GET", "/api/v1/watches", { key: org.liveKey })).body.data;
    expect(list.find((w) => w.match_key === later.domain)).toMatchObject({ origin: "default", kind: "domain" });

    const nameWatch = list.find((w) => w.kind === "name")!;
    expect((await call("DELETE", `/api/v1/watches/${nameWatch.id}`, { key: org.liveKey })).status).toBe(200);
    expect((await call("GET", "/api/v1/watches", { key: org.liveKey })).body.data).toHaveLength(3);

    // Staff remove the verification: the default watches go with it (issue 38, item 7); the owner's own watch stays.
    const own = await createWatch(org.liveKey, "domain", `own-${tag}.example.org`);
    expect(own.status, own.text).toBe(201);
    await admin("organisation", "remove", "--account", org.accountId);
    list = (await call("GET", "/api/v1/watches", { key: org.liveKey })).body.data;
    expect(list.map((w) => `${w.origin} ${w.kind} ${w.id}`)).toEqual([`user domain ${own.body.id}`]);
    // Verified again: they come back.
    await admin("organisation", "verify", "--account", org.accountId, "--legal-name", legalName, "--lei", lei, "--jurisdiction", "GB", "--domains", d.domain);
    list = (await call("GET", "/api/v1/watches", { key: org.liveKey })).body.data;
    expect(list.filter((w) => w.origin === "default").map((w) => w.kind).sort()).toEqual(["domain", "domain", "lei", "name"]);
  });
});

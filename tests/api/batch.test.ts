import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { admin, baseUrl, call, companyStatus, newAccount, newLiveAccount, setDns, untilPast, withShortExpiry } from "../helpers";
import { canonicalSha256, verifyWithJwks } from "../signatures";
import { inOneUsageMonth } from "../usage-month";

const BATCH = "/api/v1/records/batch";
const uniq = () => `t${Math.random().toString(36).slice(2, 10)}`;

const batch = (key: string, records: unknown[], idem: string | null = randomUUID()) => call("POST", BATCH, { key, body: { records }, idem });
const rows = (n: number, tag = "Row") => Array.from({ length: n }, (_, i) => companyStatus({ subject: `${tag} ${i} Ltd`, claim: `${tag} ${i} Ltd is active.` }));

/** Every record of the key, following the cursor 100 at a time. */
async function allRecords(key: string) {
  const out: any[] = [];
  let after = "";
  for (;;) {
    const page = await call("GET", `/api/v1/records?limit=100${after ? `&starting_after=${after}` : ""}`, { key });
    expect(page.status, page.text).toBe(200);
    out.push(...page.body.data);
    if (!page.body.has_more) return out;
    after = page.body.data.at(-1).verification_id;
  }
}
const recordCount = async (key: string) => (await allRecords(key)).length;
const usage = async (key: string) => (await call("GET", "/api/v1/usage", { key })).body.live_records.used as number;

async function domainChallenge(key: string) {
  const domain = `${uniq()}.example.com`;
  const r = await call("POST", "/api/v1/domain-challenges", { key, body: { domain } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; domain: string; txt_name: string; txt_value: string };
}
const domainRow = (c: { id: string; domain: string }) => ({
  subject: c.domain, claim_type: "domain_ownership", claim: `Controls DNS for ${c.domain}.`, evidence: { challenge_id: c.id },
});

async function walletChallenge(key: string, address: string) {
  const r = await call("POST", "/api/v1/wallet-challenges", { key, body: { address, network: "ethereum" } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; message: string };
}
const walletRow = (address: string, challengeId: string, signature: string) => ({
  subject: address, claim_type: "wallet_ownership", claim: `Controls ${address}.`, evidence: { challenge_id: challengeId, signature },
});

const reviewedRow = () => ({
  subject: "Acme Trading Ltd", claim_type: "press_coverage", claim: "Acme Trading Ltd was featured in the Financial Times.",
  source_name: "Financial Times", source_url: "https://www.ft.com/content/acme", checked_at: new Date(Date.now() - 3600_000).toISOString(),
});

describe("POST /api/v1/records/batch: a full batch", () => {
  it("issues 250 company_status records in one call, in row order, each listed and with a working certificate", async () => {
    const { sandboxKey } = await newAccount("batch");
    const sent = rows(250, "Batch");
    const r = await batch(sandboxKey, sent);
    expect(r.status, r.text.slice(0, 500)).toBe(200);
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.body).toMatchObject({ object: "batch", totals: { issued: 250, existing: 0, pending_review: 0, failed: 0 } });
    expect(r.body.batch_id).toMatch(/^bat_[0-9a-hjkmnp-tv-z]{20}$/);
    expect(r.body.results).toHaveLength(250);
    r.body.results.forEach((row: any, i: number) => {
      expect(row).toEqual({
        index: i, outcome: "issued", verification_id: expect.stringMatching(/^PRS-[0-9A-HJKMNP-TV-Z]{20}$/), status: "active",
        certificate_url: `${baseUrl()}/r/${row.verification_id}`,
      });
    });
    const ids = r.body.results.map((x: any) => x.verification_id as string);
    expect(new Set(ids).size).toBe(250);

    const listed = await allRecords(sandboxKey);
    expect(listed).toHaveLength(250);
    expect(new Set(listed.map((x) => x.verification_id))).toEqual(new Set(ids));
    // Row i became the record of row i.
    const byId = new Map(listed.map((x) => [x.verification_id, x]));
    ids.forEach((id: string, i: number) => {
      expect(byId.get(id)).toMatchObject({ subject: sent[i]!.subject, claim: sent[i]!.claim, status: "active", environment: "sandbox" });
    });
    for (const i of [0, 137, 249]) {
      const page = await fetch(r.body.results[i].certificate_url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(sent[i]!.subject);
      // The service's own verdict, and an independent one: the signed payload is row i's, its
      // hash is the one the record states, and jose + WebCrypto verify it against the JWKS.
      const rec = byId.get(ids[i])!;
      const sig = await call("GET", `/api/v1/records/${ids[i]}/signature`);
      expect(sig.body).toMatchObject({ verification_id: ids[i], valid: true, signing_key_id: rec.integrity.signing_key_id });
      expect(sig.body.signed_payload).toMatchObject({ id: ids[i], subject: sent[i]!.subject, claim: sent[i]!.claim });
      expect(canonicalSha256(sig.body.signed_payload)).toBe(rec.integrity.payload_sha256);
      expect(await verifyWithJwks(sig.body.signed_payload, rec.integrity.signature, rec.integrity.signing_key_id)).toBe(true);
    }
  }, 120_000);
});

describe("POST /api/v1/records/batch: validation before anything is issued", () => {
  it("one invalid row among 250 → 422 invalid_batch naming only that row, and nothing issued", async () => {
    const { sandboxKey } = await newAccount("batch");
    const sent: Record<string, unknown>[] = rows(250);
    sent[137] = { ...sent[137], foo: 1 };
    const key = randomUUID();
    const r = await batch(sandboxKey, sent, key);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_batch" });
    expect(r.body.error.message).toMatch(/1 record is invalid/);
    expect(r.body.error.rows).toEqual([
      { index: 137, errors: [{ code: "unknown_field", param: "records[137].foo", message: expect.stringContaining("records[137].foo") }] },
    ]);
    expect(r.body.error.request_id).toBe(r.headers.get("request-id"));
    expect(await recordCount(sandboxKey)).toBe(0);
    // The key was not used up: the corrected batch goes through under it.
    delete sent[137]!.foo;
    const fixed = await batch(sandboxKey, sent, key);
    expect(fixed.status).toBe(200);
    expect(fixed.body.totals.issued).toBe(250);
  }, 120_000);

  it("reports every invalid row, each with its first problem and a records[i] param", async () => {
    const { sandboxKey } = await newAccount("batch");
    const sent: unknown[] = rows(14);
    sent[2] = companyStatus({ claim: "" });
    sent[5] = { subject: "x.example.com", claim_type: "domain_ownership", claim: "DNS." };
    sent[6] = companyStatus({ evidence_level: "source_verified" });
    sent[8] = "not an object";
    sent[9] = companyStatus({ claim_type: "exchange_verified_trade_test" });
    sent[11] = companyStatus({ subject: "x".repeat(301) });
    sent[13] = { claim_type: "press_coverage", subject: "S", claim: "C" };
    const r = await batch(sandboxKey, sent);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("invalid_batch");
    expect(r.body.error.message).toMatch(/7 records are invalid \(of 14\)/);
    const summary = r.body.error.rows.map((x: any) => [x.index, x.errors.length, x.errors[0].code, x.errors[0].param]);
    expect(summary).toEqual([
      [2, 1, "missing_field", "records[2].claim"],
      [5, 1, "missing_field", "records[5].evidence.challenge_id"],
      [6, 1, "evidence_level_not_allowed", "records[6].evidence_level"],
      [8, 1, "invalid_type", "records[8]"],
      [9, 1, "invalid_value", "records[9].evidence.environment"],
      [11, 1, "too_long", "records[11].subject"],
      [13, 1, "missing_evidence", "records[13].source_name"],
    ]);
    expect(await recordCount(sandboxKey)).toBe(0);
  });

  it("refuses 251 rows (batch_too_large, before looking at the rows), 0 rows, a bad envelope and a missing key", async () => {
    const { sandboxKey } = await newAccount("batch");
    const tooMany: unknown[] = rows(251);
    tooMany[3] = { foo: 1 };
    const big = await batch(sandboxKey, tooMany);
    expect(big.status).toBe(422);
    expect(big.body.error).toMatchObject({ type: "invalid_request_error", code: "batch_too_large", param: "records" });
    expect(big.body.error.rows).toBeUndefined();
    const empty = await batch(sandboxKey, []);
    expect(empty.status).toBe(422);
    expect(empty.body.error).toMatchObject({ code: "too_short", param: "records" });
    const extra = await call("POST", BATCH, { key: sandboxKey, body: { records: rows(1), dry_run: true } });
    expect(extra.body.error).toMatchObject({ code: "unknown_field", param: "dry_run" });
    const notArray = await call("POST", BATCH, { key: sandboxKey, body: { records: companyStatus() } });
    expect(notArray.body.error).toMatchObject({ code: "invalid_type", param: "records" });
    const missing = await call("POST", BATCH, { key: sandboxKey, body: {} });
    expect(missing.body.error).toMatchObject({ code: "missing_field", param: "records" });
    const noKey = await batch(sandboxKey, rows(2), null);
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_required" });
    expect((await call("POST", BATCH, { body: { records: rows(1) } })).status).toBe(401);
    expect(await recordCount(sandboxKey)).toBe(0);
  });

  it("takes up to 4 MiB of body and refuses more with 413", async () => {
    const { sandboxKey } = await newAccount("batch");
    // 250 rows of about 17 KiB each: over 4 MiB, although every row is valid.
    const fat = Array.from({ length: 250 }, (_, i) => ({ ...reviewedRow(), subject: `Fat ${i}`, evidence: { note: "x".repeat(17_000) } }));
    const r = await batch(sandboxKey, fat);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("body_too_large");
    // Between the single-record limit (256 KiB) and 4 MiB: accepted.
    const mid = fat.slice(0, 60);
    const ok = await batch(sandboxKey, mid);
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    expect(ok.body.totals).toEqual({ issued: 0, existing: 0, pending_review: 60, failed: 0 });
  }, 60_000);

  it("is served by its own route, not by /api/v1/records/{id}: other methods are 405 with Allow: POST", async () => {
    const { sandboxKey } = await newAccount("batch");
    for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
      const r = await call(method, BATCH, { key: sandboxKey });
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      expect(r.body.error.code).toBe("method_not_allowed");
    }
  });
});

describe("POST /api/v1/records/batch: one Idempotency-Key for the batch", () => {
  it("replays the same batch, every row existing, creating nothing; also for concurrent replays", async () => {
    const { sandboxKey } = await newAccount("batch");
    const key = randomUUID();
    const sent = rows(20);
    const first = await batch(sandboxKey, sent, key);
    expect(first.status).toBe(200);
    const ids = first.body.results.map((x: any) => x.verification_id);
    const expectReplay = (r: Awaited<ReturnType<typeof batch>>) => {
      expect(r.status).toBe(200);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.body).toMatchObject({ object: "batch", batch_id: first.body.batch_id, totals: { issued: 0, existing: 20, pending_review: 0, failed: 0 } });
      expect(r.body.results).toEqual(first.body.results.map((x: any) => ({ ...x, outcome: "existing" })));
      expect(r.body.results.map((x: any) => x.verification_id)).toEqual(ids);
    };
    expectReplay(await batch(sandboxKey, sent, key));
    const racing = await Promise.all([batch(sandboxKey, sent, key), batch(sandboxKey, sent, key), batch(sandboxKey, sent, key)]);
    racing.forEach(expectReplay);
    expect(await recordCount(sandboxKey)).toBe(20);
    const reused = await batch(sandboxKey, rows(20, "Other"), key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    // The key is per endpoint: POST /api/v1/records may use the same string.
    expect((await call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus(), idem: key })).status).toBe(201);
    expect(await recordCount(sandboxKey)).toBe(21);
  });

  it("issues exactly one batch when the first submissions race", async () => {
    const { sandboxKey } = await newAccount("batch");
    const key = randomUUID();
    const sent = rows(40);
    const results = await Promise.all(Array.from({ length: 6 }, () => batch(sandboxKey, sent, key)));
    for (const r of results) expect([200, 409], r.text.slice(0, 200)).toContain(r.status);
    const fresh = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") === null);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.body.totals.issued).toBe(40);
    for (const r of results.filter((x) => x.status === 200)) expect(r.body.batch_id).toBe(fresh[0]!.body.batch_id);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("idempotency_key_in_use");
    expect(await recordCount(sandboxKey)).toBe(40);
    const after = await batch(sandboxKey, sent, key);
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(after.body.totals).toEqual({ issued: 0, existing: 40, pending_review: 0, failed: 0 });
  });

  it("replays a batch whose rows would no longer validate (clock-dependent expires_at)", async () => {
    const { sandboxKey } = await newAccount("batch");
    let key = "";
    let sent: unknown[] = [];
    const { res: first, expiresAt } = await withShortExpiry((at) => {
      key = randomUUID();
      sent = [companyStatus({ expires_at: at }), companyStatus()];
      return batch(sandboxKey, sent, key);
    });
    expect(first.status, first.text).toBe(200);
    await untilPast(expiresAt);
    const fresh = await batch(sandboxKey, sent, randomUUID()); // no longer valid as a new batch…
    expect(fresh.status).toBe(422);
    expect(fresh.body.error.rows).toEqual([{ index: 0, errors: [expect.objectContaining({ code: "invalid_value", param: "records[0].expires_at" })] }]);
    const again = await batch(sandboxKey, sent, key); // …but its key replays it
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.batch_id).toBe(first.body.batch_id);
    expect(await recordCount(sandboxKey)).toBe(2);
  });
});

describe("POST /api/v1/records/batch: rows whose check fails", () => {
  it("marks refused rows failed with their error while the other rows issue or go to review", async () => {
    const { sandboxKey } = await newAccount("batch");
    const c = await domainChallenge(sandboxKey); // TXT not published
    const owner = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const w = await walletChallenge(sandboxKey, owner.address);
    const wrongSig = await stranger.signMessage({ message: w.message });
    const sent = [
      companyStatus({ subject: "First Ltd" }),
      domainRow(c),
      companyStatus({ subject: "Second Ltd" }),
      walletRow(owner.address, w.id, wrongSig),
      reviewedRow(),
      companyStatus({ subject: "Third Ltd" }),
    ];
    const r = await batch(sandboxKey, sent);
    expect(r.status, r.text).toBe(200);
    expect(r.body.totals).toEqual({ issued: 3, existing: 0, pending_review: 1, failed: 2 });
    expect(r.body.results.map((x: any) => x.outcome)).toEqual(["issued", "failed", "issued", "failed", "pending_review", "issued"]);
    expect(r.body.results[1]).toEqual({
      index: 1, outcome: "failed",
      error: { code: "dns_record_not_found", param: "records[1].evidence.challenge_id", message: expect.stringContaining(c.txt_name) },
    });
    expect(r.body.results[3]).toEqual({
      index: 3, outcome: "failed", error: { code: "signature_mismatch", param: "records[3].evidence.signature", message: expect.any(String) },
    });
    expect(r.body.results[4]).toEqual({
      index: 4, outcome: "pending_review", verification_id: expect.stringMatching(/^PRS-/), status: "pending_review", certificate_url: null,
    });
    const pending = await call("GET", `/api/v1/records/${r.body.results[4].verification_id}`, { key: sandboxKey });
    expect(pending.body).toMatchObject({ status: "pending_review", claim_type: "press_coverage", certificate_url: null });
    const listed = await allRecords(sandboxKey);
    expect(listed.map((x) => x.subject).sort()).toEqual(["Acme Trading Ltd", "First Ltd", "Second Ltd", "Third Ltd"]);

    // Failed rows used nothing up: both challenges still prove once fixed.
    setDns(c.txt_name, [c.txt_value]);
    const domain = await call("POST", "/api/v1/records", { key: sandboxKey, body: domainRow(c) });
    expect(domain.status, domain.text).toBe(201);
    const wallet = await call("POST", "/api/v1/records", {
      key: sandboxKey, body: walletRow(owner.address, w.id, await owner.signMessage({ message: w.message })),
    });
    expect(wallet.status, wallet.text).toBe(201);

    // The same rows under a new key are a new batch, in which both challenges are now used.
    const again = await batch(sandboxKey, sent);
    expect(again.status).toBe(200);
    expect(again.body.totals).toEqual({ issued: 3, existing: 0, pending_review: 1, failed: 2 });
    expect(again.body.results[1].error.code).toBe("challenge_used");
    expect(again.body.results[3].error.code).toBe("challenge_used");
  });

  it("replays a batch with failed rows: failed stay failed, the rest existing", async () => {
    const { sandboxKey } = await newAccount("batch");
    const c = await domainChallenge(sandboxKey);
    const key = randomUUID();
    const sent = [companyStatus(), domainRow(c), reviewedRow()];
    const first = await batch(sandboxKey, sent, key);
    expect(first.body.totals).toEqual({ issued: 1, existing: 0, pending_review: 1, failed: 1 });
    setDns(c.txt_name, [c.txt_value]); // would now pass, but a replay re-runs nothing
    const again = await batch(sandboxKey, sent, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.totals).toEqual({ issued: 0, existing: 2, pending_review: 0, failed: 1 });
    expect(again.body.results.map((x: any) => x.outcome)).toEqual(["existing", "failed", "existing"]);
    expect(again.body.results[1].error).toEqual(first.body.results[1].error);
    expect(await recordCount(sandboxKey)).toBe(2);
  });

  it("lets only the first of two rows with the same challenge use it; the second is challenge_used", async () => {
    const { sandboxKey } = await newAccount("batch");
    const c = await domainChallenge(sandboxKey);
    setDns(c.txt_name, [c.txt_value]);
    const owner = privateKeyToAccount(generatePrivateKey());
    const w = await walletChallenge(sandboxKey, owner.address);
    const sig = await owner.signMessage({ message: w.message });
    const sent = [domainRow(c), domainRow(c), walletRow(owner.address, w.id, sig), companyStatus()];
    const r = await batch(sandboxKey, sent);
    expect(r.status, r.text).toBe(200);
    expect(r.body.results.map((x: any) => x.outcome)).toEqual(["issued", "failed", "issued", "issued"]);
    expect(r.body.results[1].error).toMatchObject({ code: "challenge_used", param: "records[1].evidence.challenge_id" });
    expect(r.body.totals).toEqual({ issued: 3, existing: 0, pending_review: 0, failed: 1 });
    const domainRec = await call("GET", `/api/v1/records/${r.body.results[0].verification_id}`, { key: sandboxKey });
    expect(domainRec.body).toMatchObject({ claim_type: "domain_ownership", evidence_level: "source_verified", subject: c.domain });
    const walletRec = await call("GET", `/api/v1/records/${r.body.results[2].verification_id}`, { key: sandboxKey });
    expect(walletRec.body).toMatchObject({ claim_type: "wallet_ownership", subject: owner.address });
    expect(await recordCount(sandboxKey)).toBe(3);
  });
});

describe("POST /api/v1/records/batch: live batches and the plan", () => {
  // The test server runs with PLAN_LIMITS={"starter":{"live_records":3}}.
  it("meters each live issued row (not reviewed or failed ones), and refuses a batch past the allowance whole", () => inOneUsageMonth(async () => {
    const acct = await newLiveAccount("starter");
    const two = await batch(acct.liveKey, rows(2, "Live"));
    expect(two.status).toBe(200);
    expect(two.body.totals.issued).toBe(2);
    expect(await usage(acct.liveKey)).toBe(2);
    const over = await batch(acct.liveKey, rows(2, "Over"));
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ type: "payment_required", code: "plan_limit_reached" });
    expect(await usage(acct.liveKey)).toBe(2);
    expect(await recordCount(acct.liveKey)).toBe(2);
    // One live issue, one review, one failure: only the issued row counts.
    const c = await domainChallenge(acct.liveKey);
    const mixed = await batch(acct.liveKey, [companyStatus({ subject: "Last Ltd" }), reviewedRow(), domainRow(c)]);
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body.totals).toEqual({ issued: 1, existing: 0, pending_review: 1, failed: 1 });
    expect(await usage(acct.liveKey)).toBe(3);
    // Sandbox batches are never metered.
    expect((await batch(acct.sandboxKey, rows(5))).status).toBe(200);
    expect(await usage(acct.liveKey)).toBe(3);
  }));

  it("answers 402 for 4 live rows on a 3-record allowance: nothing issued, usage unchanged, key free again", () => inOneUsageMonth(async () => {
    const acct = await newLiveAccount("starter");
    const key = randomUUID();
    const r = await batch(acct.liveKey, rows(4, "Live"), key);
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("plan_limit_reached");
    expect(await usage(acct.liveKey)).toBe(0);
    expect(await recordCount(acct.liveKey)).toBe(0);
    const retry = await batch(acct.liveKey, rows(3, "Live"), key);
    expect(retry.status).toBe(200);
    expect(retry.body.totals.issued).toBe(3);
    expect(retry.body.results.every((x: any) => x.certificate_url?.startsWith(baseUrl()))).toBe(true);
    expect(await usage(acct.liveKey)).toBe(3);
  }));

  it("answers 402 plan_inactive for a live batch without a plan", async () => {
    const acct = await newLiveAccount("growth");
    await admin("plan", "set", "--account", acct.accountId, "--plan", "none");
    const r = await batch(acct.liveKey, rows(2));
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("plan_inactive");
    expect(await recordCount(acct.liveKey)).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { call, companyStatus, issue, newAccount, sleep, untilPast, withShortExpiry, type Res } from "../helpers";
import { verifyWithJwks } from "../signatures";

/**
 * GET /api/v1/records/{id}/status?at=<RFC 3339>: the signed status a record had at a past
 * instant, from its history (CONTRACT, "Status at a point in time"). Instants are taken
 * from the record's own history as the owner reads it, so the phases are exact, not guessed
 * from the test's clock.
 */

const statusAt = (id: string, at: string) => call("GET", `/api/v1/records/${id}/status?at=${encodeURIComponent(at)}`);
const iso = (ms: number) => new Date(ms).toISOString();

async function signatureValid(body: Record<string, unknown>) {
  const { status_signature, ...payload } = body;
  return verifyWithJwks(payload, String(status_signature), String(payload.signing_key_id));
}

const move = async (key: string, id: string, operation: string) => {
  const r = await call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation, reason: `test ${operation}` } });
  expect(r.status, r.text).toBe(200);
};

function expect422(r: Res, code: "invalid_format" | "invalid_value") {
  expect(r.status, r.text).toBe(422);
  expect(r.body.error).toMatchObject({ type: "invalid_request_error", code, param: "at" });
  expect(r.body.error.request_id).toBe(r.headers.get("request-id"));
}

describe("GET /api/v1/records/{id}/status?at=", () => {
  it("answers each phase of a record's life: active, suspended, active, revoked — signed, with `at` echoed", async () => {
    const { sandboxKey } = await newAccount("at");
    const rec = await issue(sandboxKey);
    const id: string = rec.verification_id;
    for (const op of ["suspend", "reinstate", "revoke"]) {
      await sleep(40); // time under test: a clock tick, so each phase has its own instants
      await move(sandboxKey, id, op);
    }
    const owner = (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
    const history: { status: string; at: string }[] = owner.lifecycle.history;
    expect(history.map((h) => h.status)).toEqual(["active", "suspended", "active", "revoked"]);
    const live = (await call("GET", `/api/v1/records/${id}/status`)).body;
    expect(live.at).toBeUndefined(); // the live answer is as it was

    for (const [i, h] of history.entries()) {
      const start = Date.parse(h.at);
      const end = i + 1 < history.length ? Date.parse(history[i + 1]!.at) : Date.now();
      for (const ms of [start, Math.floor((start + end) / 2), end - 1]) {
        const r = await statusAt(id, iso(ms));
        expect(r.status, r.text).toBe(200);
        expect(r.body, `at ${iso(ms)}`).toMatchObject({
          verification_id: id, status: h.status, status_changed_at: h.at, at: iso(ms),
          issued_at: rec.lifecycle.issued_at, expires_at: rec.lifecycle.expires_at, subject: rec.subject,
          environment: "sandbox", verified: false, claim_type: "company_status", certificate_url: rec.certificate_url,
          signing_key_id: live.signing_key_id,
        });
        expect(Date.parse(r.body.as_of)).toBeGreaterThanOrEqual(ms); // signed now, about then
        expect(r.headers.get("access-control-allow-origin")).toBe("*");
        expect(r.headers.get("cache-control")).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
        expect(await signatureValid(r.body)).toBe(true);
      }
    }

    // `at` is covered by the signature: the same answer claimed for another instant fails.
    const mid = (await statusAt(id, history[1]!.at)).body;
    expect(await signatureValid({ ...mid, at: history[0]!.at })).toBe(false);
    expect(await signatureValid({ ...mid, status: "active" })).toBe(false);
    // Any offset names the same instant; the answer speaks UTC.
    const t = new Date(Date.parse(history[1]!.at));
    const plus2 = new Date(t.getTime() + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    const shifted = await statusAt(id, plus2);
    expect(shifted.body).toMatchObject({ status: "suspended", at: history[1]!.at });
  });

  it("before issue → 404 record_not_found; a record that does not exist → 404 too", async () => {
    const { sandboxKey } = await newAccount("at");
    const rec = await issue(sandboxKey);
    const issuedAt = Date.parse(rec.lifecycle.issued_at);
    for (const at of [iso(issuedAt - 1), "2020-01-01T00:00:00Z", "0001-01-01T00:00:00Z"]) {
      const r = await statusAt(rec.verification_id, at);
      expect(r.status, r.text).toBe(404);
      expect(r.body.error).toMatchObject({ type: "not_found", code: "record_not_found", param: "id" });
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
    }
    expect((await statusAt(rec.verification_id, rec.lifecycle.issued_at)).body.status).toBe("active");
    const none = await statusAt("PRS-0000000000000000000Z", "2026-01-01T00:00:00Z");
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe("record_not_found");
    expect((await statusAt("not-an-id", "2026-01-01T00:00:00Z")).status).toBe(404);
  });

  it("`at` in the future → 422 invalid_value; malformed, empty or repeated → 422 invalid_format naming RFC 3339, never 500", async () => {
    const { sandboxKey } = await newAccount("at");
    const id = (await issue(sandboxKey)).verification_id;
    expect422(await statusAt(id, iso(Date.now() + 60_000)), "invalid_value");
    expect422(await statusAt(id, "9999-12-31T23:59:59Z"), "invalid_value");
    // The record's existence is not what decides: a malformed `at` is refused for any id.
    for (const target of [id, "PRS-0000000000000000000Z"]) {
      for (const bad of [
        "yesterday", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "", "2026-01-31", "2026-01-31T12:00:00", "2026-01-31 12:00:00Z",
        "2026-01-31T25:00:00Z", "1767225600", "2026-01-31T12:00:00+0200", "x".repeat(5000), "２０２６-01-31T12:00:00Z",
      ]) {
        const r = await statusAt(target, bad);
        expect422(r, "invalid_format");
        expect(r.body.error.message, bad).toContain("RFC 3339");
      }
    }
    const twice = await call("GET", `/api/v1/records/${id}/status?at=2026-01-01T00:00:00Z&at=2026-01-01T00:00:00Z`);
    expect422(twice, "invalid_format");
    expect(twice.body.error.message).toContain("RFC 3339");
    const bare = await call("GET", `/api/v1/records/${id}/status?at`);
    expect422(bare, "invalid_format");
    // Other query parameters are ignored, as they always were (cache busters).
    expect((await call("GET", `/api/v1/records/${id}/status?_=1`)).status).toBe(200);
  });

  it("a record past its expiry reads expired at any instant from expires_at on, with status_changed_at = expires_at", async () => {
    const { sandboxKey } = await newAccount("at");
    const { res, expiresAt } = await withShortExpiry((at) => call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus({ expires_at: at }) }));
    expect(res.status, res.text).toBe(201);
    const id = res.body.verification_id;
    await untilPast(expiresAt);
    const exp = Date.parse(expiresAt);
    const before = await statusAt(id, iso(exp - 1));
    expect(before.body).toMatchObject({ status: "active", status_changed_at: res.body.lifecycle.issued_at });
    for (const ms of [exp, exp + 1, Date.now() - 10]) {
      const r = await statusAt(id, iso(ms));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ status: "expired", status_changed_at: expiresAt, expires_at: expiresAt, at: iso(ms) });
      expect(await signatureValid(r.body)).toBe(true);
    }
  });

  it("a submission pending review is 404 for any instant, as it is now", async () => {
    const { sandboxKey } = await newAccount("at");
    const sub = await call("POST", "/api/v1/records", {
      key: sandboxKey,
      body: { subject: "S", claim_type: "award", claim: "Won it.", source_name: "Src", source_url: "https://example.org/a", checked_at: iso(Date.now() - 86_400_000) },
    });
    expect(sub.status, sub.text).toBe(202);
    const id = sub.body.verification_id;
    await sleep(5); // time under test: a clock tick, so "now - 1 ms" below is after the submission
    expect((await call("GET", `/api/v1/records/${id}/status`)).status).toBe(404);
    for (const at of [sub.body.lifecycle.history[0].at, iso(Date.now() - 1), "2020-01-01T00:00:00Z"]) {
      const r = await statusAt(id, at);
      expect(r.status, r.text).toBe(404);
      expect(r.body.error.code).toBe("record_not_found");
      expect(r.text).not.toContain("pending"); // no different answer than for no record at all
    }
  });
});

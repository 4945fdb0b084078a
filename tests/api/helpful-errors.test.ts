import { describe, expect, it } from "vitest";
import { baseUrl, call, companyStatus, newAccount } from "../helpers";

/** Errors that say what to do (issue 12, item 6): each answer names the fix, and nothing is written. */

const reviewed = (over: Record<string, unknown> = {}) => ({
  subject: "Acme Trading Ltd", claim_type: "trade_licence", claim: "Acme Trading Ltd holds trade licence 42.",
  source_name: "City register", source_url: "https://register.example.org/42", checked_at: "2026-01-05T09:00:00Z", ...over,
});

async function nothingWritten(key: string) {
  const list = await call("GET", "/api/v1/records", { key });
  expect(list.status).toBe(200);
  expect(list.body.data).toEqual([]);
}

describe("a claim_type a typo away from a known one", () => {
  it.each([
    ["company_stauts", "company_status"],
    ["compnay_status", "company_status"],
    ["domain_ownrship", "domain_ownership"],
    ["wallet_ownership_", "wallet_ownership"],
    ["exchange_verified_trad", "exchange_verified_trade"],
    ["exchange_verified_trade_tset", "exchange_verified_trade_test"],
  ])("%s → 422 unknown_claim_type, did you mean %s?", async (typo, meant) => {
    const { sandboxKey } = await newAccount("typo");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus({ claim_type: typo }) });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({
      type: "invalid_request_error", code: "unknown_claim_type", param: "claim_type",
      message: `Unknown claim_type '${typo}'; did you mean '${meant}'?`,
    });
    await nothingWritten(sandboxKey);
  });

  it("is refused even with the fields a reviewed claim type takes (it is not taken for a new reviewed type)", async () => {
    const { sandboxKey } = await newAccount("typo");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: reviewed({ claim_type: "company_stauts" }) });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.code).toBe("unknown_claim_type");
    await nothingWritten(sandboxKey);
  });

  it("a claim type far from every known one is still a reviewed claim (202)", async () => {
    const { sandboxKey } = await newAccount("typo");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: reviewed() });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ claim_type: "trade_licence", status: "pending_review" });
  });

  it("in a batch the row says so, with its param, and nothing is issued", async () => {
    const { sandboxKey } = await newAccount("typo");
    const r = await call("POST", "/api/v1/records/batch", {
      key: sandboxKey, body: { records: [companyStatus(), companyStatus({ claim_type: "company_stauts" })] },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.code).toBe("invalid_batch");
    expect(r.body.error.rows).toEqual([{
      index: 1,
      errors: [{ code: "unknown_claim_type", param: "records[1].claim_type", message: "Unknown claim_type 'company_stauts'; did you mean 'company_status'?" }],
    }]);
    await nothingWritten(sandboxKey);
  });
});

describe("an Authorization header that is not 'Bearer <key>'", () => {
  async function withHeader(authorization: string) {
    const r = await fetch(`${baseUrl()}/api/v1/records`, { headers: { Authorization: authorization } });
    return { status: r.status, body: (await r.json()) as { error: { code: string; message: string; type: string } } };
  }

  it("a bare key → 401 invalid_api_key that says to send it as Bearer, without echoing it", async () => {
    const { sandboxKey } = await newAccount("bare");
    const r = await withHeader(sandboxKey);
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({
      type: "authentication_error", code: "invalid_api_key",
      message: "The Authorization header holds a bare API key; send it as 'Authorization: Bearer <key>'.",
    });
    expect(JSON.stringify(r.body)).not.toContain(sandboxKey.slice(12));
    // The same key sent properly works: the answer was about the form, not the key.
    expect((await withHeader(`Bearer ${sandboxKey}`)).status).toBe(200);
  });

  it("a bare live key, even with stray spaces, gets the same advice", async () => {
    const r = await withHeader(`prs_live_${"A".repeat(32)}  `);
    expect(r.status).toBe(401);
    expect(r.body.error.message).toContain("send it as 'Authorization: Bearer <key>'");
  });

  it("another scheme → says what the header must be", async () => {
    const r = await withHeader("Basic dXNlcjpwYXNz");
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: "invalid_api_key", message: expect.stringContaining("must be 'Bearer <key>'") });
  });

  it("a Bearer header with an unknown key is still just 'not valid'", async () => {
    const r = await withHeader(`Bearer prs_sandbox_${"Z".repeat(32)}`);
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: "invalid_api_key", message: "The API key is not valid." });
  });
});

describe("invalid JSON names the line and column", () => {
  async function send(key: string, raw: string) {
    return call("POST", "/api/v1/records", { key, body: raw, headers: { "Content-Type": "application/json" } });
  }

  it("on one line", async () => {
    const { sandboxKey } = await newAccount("json");
    const r = await send(sandboxKey, '{"subject": "A",');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: "invalid_json",
      message: "The request body is not valid JSON: at line 1, column 17, expected a property name in double quotes but found the end of the body.",
    });
  });

  it("on a later line, and never quotes the body back", async () => {
    const { sandboxKey } = await newAccount("json");
    const filler = "lorem ipsum ".repeat(2000);
    const raw = `{\n  "subject": "Acme",\n  "claim": "${filler}",\n  "claim_type": "company_status"\n  "visibility": "public"\n}`;
    const r = await send(sandboxKey, raw);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_json");
    expect(r.body.error.message).toBe("The request body is not valid JSON: at line 5, column 3, expected ',' or '}' but found '\"'.");
    expect(r.text.length).toBeLessThan(400);
    expect(r.text).not.toContain("lorem");
  });

  it("an empty body says it is empty", async () => {
    const { sandboxKey } = await newAccount("json");
    const r = await send(sandboxKey, "");
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_json", message: "The request body is empty; send a JSON object." });
  });

  it("the lifecycle endpoint answers the same way", async () => {
    const { sandboxKey } = await newAccount("json");
    const r = await call("POST", "/api/v1/records/PRS-00000000000000000000/lifecycle", {
      key: sandboxKey, body: '{"operation": "suspend", "reason": "x" ', headers: { "Content-Type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("The request body is not valid JSON: at line 1, column 40, expected ',' or '}' but found the end of the body.");
  });
});

describe("a bad timestamp names the expected format", () => {
  const FORMAT = "must be an RFC 3339 timestamp with a time zone, such as 2026-01-31T12:00:00Z or 2026-01-31T14:00:00+02:00.";
  it.each([
    ["expires_at", companyStatus({ expires_at: "31/01/2027" })],
    ["expires_at", companyStatus({ expires_at: "2027-01-31" })],
    ["expires_at", companyStatus({ expires_at: "2027-01-31T12:00:00" })], // no time zone
    ["checked_at", reviewed({ checked_at: "yesterday" })],
  ])("%s", async (param, body) => {
    const { sandboxKey } = await newAccount("ts");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "invalid_format", param, message: `'${param}' ${FORMAT}` });
  });
});

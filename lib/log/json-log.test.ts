import { DrizzleQueryError } from "drizzle-orm/errors";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { consoleMessage, createLogger, loggerOptions, redactFields, redactText, runWithRequestId } from "./json-log.mjs";

/** A logger with the service's options whose lines are kept here, each parsed. */
function capture(level = "info") {
  const raw: string[] = [];
  const logger = createLogger(level, { write: (s: string) => void raw.push(s) });
  const lines = () => raw.map((s) => JSON.parse(s) as Record<string, unknown>);
  return { logger, raw, lines, text: () => raw.join("") };
}

const LIVE_KEY = `prs_live_${"A1b2C3d4".repeat(4)}`;
const SANDBOX_KEY = `prs_sandbox_${"Z9y8X7w6".repeat(4)}`;
const WHSEC = "whsec_c2VjcmV0LXdlYmhvb2stc2lnbmluZy1rZXktMTIzNDU2Nzg5MA==";

describe("the service's JSON log", () => {
  it("writes one JSON object a line with level, time and msg", () => {
    const c = capture();
    c.logger.info({ records: 2 }, "sweep: records expired");
    c.logger.debug("not at info");
    expect(c.raw).toHaveLength(1);
    expect(c.raw[0]!.endsWith("\n")).toBe(true);
    expect(c.lines()[0]).toMatchObject({ level: 30, msg: "sweep: records expired", records: 2 });
    expect(typeof c.lines()[0]!.time).toBe("number");
  });

  it("reads an unknown level as info", () => {
    const c = capture("loud");
    c.logger.info("kept");
    c.logger.debug("dropped");
    expect(c.lines().map((l) => l.msg)).toEqual(["kept"]);
  });

  it("redacts API keys and webhook secrets anywhere in a line: message, fields, nested strings", () => {
    const c = capture();
    c.logger.info({ note: `key ${SANDBOX_KEY} used`, deep: { list: [`x ${LIVE_KEY}`] } }, `got ${LIVE_KEY} and ${WHSEC}`);
    const out = c.text();
    for (const s of [LIVE_KEY, SANDBOX_KEY, WHSEC, "A1b2C3d4", "Z9y8X7w6", "c2VjcmV0"]) expect(out).not.toContain(s);
    const line = c.lines()[0]!;
    expect(line.msg).toBe("got [redacted] and [redacted]");
    expect(line.note).toBe("key [redacted] used");
    expect(line.deep).toEqual({ list: ["x [redacted]"] });
  });

  it("redacts Authorization and Cookie headers (pino's redact paths) and bearer tokens in text", () => {
    const c = capture();
    c.logger.info({
      req: { headers: { authorization: "Bearer tok-AAA", cookie: "next-auth.session-token=ses-BBB", accept: "application/json" } },
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    }, "sent Authorization: Bearer tok-CCC");
    const out = c.text();
    for (const s of ["tok-AAA", "ses-BBB", "dXNlcjpwYXNz", "tok-CCC"]) expect(out).not.toContain(s);
    const line = c.lines()[0]!;
    expect(line.req).toEqual({ headers: { authorization: "[redacted]", cookie: "[redacted]", accept: "application/json" } });
    expect(line.headers).toEqual({ authorization: "[redacted]" });
    expect(line.msg).toBe("sent Authorization: Bearer [redacted]");
  });

  it("redacts fields named like secrets at any depth and keeps the others", () => {
    const c = capture();
    c.logger.info({
      secret: "v-secret", password: "v-password", api_secret: "v-api-secret", api_key: "v-api-key",
      token: "v-token", signature: "v-signature",
      evidence: { exchange: { apiKey: "v-apiKey", webhook_secret: "v-webhook-secret", new_password: "v-new-pw" }, ticket: "T-1" },
      account_id: "acct_1",
    }, "fields");
    const out = c.text();
    for (const v of ["v-secret", "v-password", "v-api-secret", "v-api-key", "v-token", "v-signature", "v-apiKey", "v-webhook-secret", "v-new-pw"]) {
      expect(out).not.toContain(v);
    }
    expect(c.lines()[0]).toMatchObject({
      secret: "[redacted]", password: "[redacted]", api_secret: "[redacted]", api_key: "[redacted]", token: "[redacted]", signature: "[redacted]",
      evidence: { exchange: { apiKey: "[redacted]", webhook_secret: "[redacted]", new_password: "[redacted]" }, ticket: "T-1" },
      account_id: "acct_1",
    });
  });

  it("redacts the private part (d) of JWKs, keeps the public part", () => {
    const d = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A";
    const x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
    const c = capture();
    c.logger.info({ keys: [{ kty: "OKP", crv: "Ed25519", kid: "k1", x, d }], loaded: { kty: "OKP", x, d } }, "keys");
    c.logger.info(`as text: ${JSON.stringify({ kty: "OKP", x, d })}`);
    const out = c.text();
    expect(out).not.toContain(d);
    expect(out).toContain(x);
    expect(c.lines()[0]).toMatchObject({ keys: [{ kid: "k1", x, d: "[redacted]" }], loaded: { x, d: "[redacted]" } });
  });

  it("redacts secret values written as text: name=value, name: 'value', URL passwords, PEM private keys", () => {
    const c = capture();
    c.logger.warn("GET /confirm?token=tk-111&next=/portal");
    c.logger.warn(`inspected { password: 'pw-222', api_secret: "as-333", ok: 1 }`);
    c.logger.warn("cannot reach postgres://prs:db-pw-444@db.internal:5432/prs");
    c.logger.warn("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIPEM555\n-----END PRIVATE KEY-----");
    const out = c.text();
    for (const s of ["tk-111", "pw-222", "as-333", "db-pw-444", "PEM555"]) expect(out).not.toContain(s);
    expect(c.lines().map((l) => l.msg)).toEqual([
      "GET /confirm?token=[redacted]&next=/portal",
      `inspected { password: '[redacted]', api_secret: "[redacted]", ok: 1 }`,
      "cannot reach postgres://prs:[redacted]@db.internal:5432/prs",
      "[redacted]",
    ]);
    // Ordinary text that merely names a setting stays readable.
    expect(redactText("NEXTAUTH_SECRET: must be at least 32 characters")).toBe("NEXTAUTH_SECRET: must be at least 32 characters");
  });

  it("writes a failed query's error without its parameters, with or without a message", () => {
    const pg = Object.assign(new Error('invalid input syntax for type uuid: "whsec_SECRETVALUE"'), { name: "PostgresError", code: "22P02" });
    const err = new DrizzleQueryError('insert into "webhooks" ("secret", "email") values ($1, $2)', ["PARAMVALUE", "a@b.test"], pg);
    expect(err.message).toContain("PARAMVALUE"); // what pino would take as the message
    const c = capture();
    c.logger.error({ err }, "webhook create failed");
    c.logger.error(err);
    c.logger.error({ cause: { inner: err } }, "nested");
    const out = c.text();
    for (const s of ["PARAMVALUE", "a@b.test", "SECRETVALUE"]) expect(out).not.toContain(s);
    const [withMsg, bare, nested] = c.lines();
    expect(withMsg!.msg).toBe("webhook create failed");
    expect(String(withMsg!.err)).toContain('failed query: insert into "webhooks" ("secret", "email") values ($1, $2)');
    expect(String(withMsg!.err)).toContain("22P02");
    expect(bare!.msg).toBe('Error: failed query: insert into "webhooks" ("secret", "email") values ($1, $2)');
    expect(String((nested!.cause as { inner: string }).inner)).toContain("22P02");
  });

  it("puts the request's id on the lines logged while it is handled, and only there", async () => {
    const c = capture();
    c.logger.info("before");
    await runWithRequestId("req_0123456789abcdefghjk", async () => {
      // time under test: a timer turn, so the log line is written after an await — the request id must survive it
      await new Promise((r) => setTimeout(r, 1));
      c.logger.info("during");
    });
    c.logger.info("after");
    expect(c.lines().map((l) => [l.msg, l.request_id])).toEqual([["before", undefined], ["during", "req_0123456789abcdefghjk"], ["after", undefined]]);
  });

  it("turns console arguments into one message: errors described, colours dropped", () => {
    const pg = Object.assign(new Error("boom"), { name: "PostgresError", code: "23505", detail: "Key (email)=(a@b.test) already exists." });
    expect(consoleMessage(["\x1b[31m⨯\x1b[39m failed:", pg, { n: 1 }])).toBe("⨯ failed: PostgresError 23505: boom { n: 1 }");
    expect(consoleMessage([""])).toBe("");
  });
});

// The logger's three passes overlap on purpose; each must hold on its own.
describe("each redaction pass alone", () => {
  it("pino's redact paths: request headers and JWKs' d", () => {
    const raw: string[] = [];
    const logger = pino({ redact: loggerOptions("info").redact }, { write: (s: string) => void raw.push(s) });
    logger.info({
      req: { headers: { authorization: "Bearer a", cookie: "c=1", host: "h" } }, headers: { cookie: "c=2" },
      jwk: { x: "pub", d: "priv1" }, keys: [{ x: "pub", d: "priv2" }],
    });
    expect(JSON.parse(raw[0]!)).toMatchObject({
      req: { headers: { authorization: "[redacted]", cookie: "[redacted]", host: "h" } }, headers: { cookie: "[redacted]" },
      jwk: { x: "pub", d: "[redacted]" }, keys: [{ x: "pub", d: "[redacted]" }],
    });
  });

  it("the field pass: secret-named fields at any depth, a JWK's d, errors described", () => {
    const out = redactFields({
      a: { b: { c: { client_secret: "s", Password: "p", x_api_key: "k", refresh_token: "t", signature: "g", name: "kept" } } },
      jwk: { kty: "OKP", x: "pub", d: "priv" }, point: { d: "not a key" }, err: new TypeError("bad"),
    }) as Record<string, unknown>;
    expect(out.a).toEqual({ b: { c: { client_secret: "[redacted]", Password: "[redacted]", x_api_key: "[redacted]", refresh_token: "[redacted]", signature: "[redacted]", name: "kept" } } });
    expect(out.jwk).toEqual({ kty: "OKP", x: "pub", d: "[redacted]" });
    expect(out.point).toEqual({ d: "not a key" });
    expect(out.err).toMatch(/^TypeError: bad\n\s+at /);
  });

  it("the text pass: keys, webhook secrets, bearer tokens, name=value", () => {
    expect(redactText(`a ${LIVE_KEY} b ${SANDBOX_KEY} c ${WHSEC} d`)).toBe("a [redacted] b [redacted] c [redacted] d");
    expect(redactText("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [redacted]");
    expect(redactText('{"signature":"sig","x":"y"}')).toBe('{"signature":"[redacted]","x":"y"}');
    expect(redactText("?api_key=k1&q=ok")).toBe("?api_key=[redacted]&q=ok");
  });
});

import { describe, expect, it } from "vitest";
import { baseUrl, newAccount } from "../helpers";

/**
 * Seeded fuzzer: valid requests to every kind of endpoint, each with one part replaced by a
 * hostile value (the review's findings and their relatives: NUL, lone surrogates, bidi and
 * zero-width characters, prototype names, deep nesting, odd numbers and types, malformed
 * percent-encoding). Whatever it sends, the answer is never a 5xx, and an error is always
 * the envelope with a code and the Request-Id. Reproduce a failure with PRS_FUZZ_SEED=<seed>.
 */
const SEED = Number(process.env.PRS_FUZZ_SEED ?? 20261122);
const ROUNDS = 240;

/** mulberry32: a tiny deterministic PRNG (not for secrets). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const deep = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

/** Hostile JSON values. Strings are sent as JSON escapes, so they arrive as the server parses them. */
const HOSTILE: (() => unknown)[] = [
  () => "a\u0000b", () => "\u0000", () => "x\ud800", () => "\udfff", () => "\ud83d", () => "Acme \u202Edetimil",
  () => "Ac\u200Bme", () => "\uFEFF", () => "\u2066x\u2069", () => "constructor", () => "__proto__", () => "toString",
  () => "hasOwnProperty", () => "prototype", () => "", () => " ", () => "x".repeat(5000), () => "😀".repeat(200),
  () => -1, () => 0, () => 1e308, () => -0, () => 12345678901234567890, () => 0.1, () => true, () => null,
  () => [], () => [null], () => ({}), () => ({ __proto__: null }), () => deep(40), () => deep(3000),
  () => "https://[::127.0.0.1]/", () => "http://169.254.169.254/latest", () => "javascript:alert(1)", () => "%ED%A0%80",
  () => "PRS-00000000000000000000", () => "prs_live_" + "A".repeat(32), () => "wch_" + "0".repeat(20), () => "2026-02-30T00:00:00Z",
];

const PATH_SEGMENTS = ["%ED%A0%80", "%ff", "%00", "%c0%af", "%2e%2e", "..", "%252e", "a%2Fb", "PRS-00000000000000000000", "constructor", "__proto__", "%E2%80%AE", "x".repeat(300)];

type Req = { method: string; path: string; body?: string; contentType?: string };

function requests(rand: () => number, key: string): Req[] {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const hostile = () => pick(HOSTILE)();
  const mutate = (obj: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...obj };
    const keys = Object.keys(out);
    const r = rand();
    if (r < 0.6 && keys.length) out[pick(keys)] = hostile();
    else if (r < 0.8) out.evidence = { [pick(["note", "__proto__", "constructor", "a\u0000", "x\ud800"])]: hostile() };
    else out[pick(["__proto__", "constructor", "extra", "\u0000", "evidence_level"])] = hostile();
    return out;
  };
  const encodeBody = (o: unknown) => (rand() < 0.5 ? JSON.stringify(o) : JSON.stringify(o).replace(/"\}$/, "\"")); // sometimes cut short
  const generic = { subject: "Acme", claim_type: "press_coverage", claim: "Covered.", source_name: "Src", source_url: "https://example.org/x", checked_at: "2026-11-01T00:00:00Z", visibility: "public" };
  const status = { subject: "Acme Ltd", claim_type: "company_status", claim: "Acme Ltd is active.", visibility: "public" };
  const makers: (() => Req)[] = [
    () => ({ method: "POST", path: "/api/v1/records", body: encodeBody(mutate(rand() < 0.5 ? generic : status)) }),
    () => ({ method: "POST", path: "/api/v1/records/batch", body: JSON.stringify({ records: [status, mutate(generic)] }) }),
    () => ({ method: "POST", path: "/api/v1/records/PRS-00000000000000000000/lifecycle", body: JSON.stringify(mutate({ operation: "suspend", reason: "testing" })) }),
    () => ({ method: "POST", path: "/api/v1/webhooks", body: JSON.stringify(mutate({ url: "https://example.org/hook", description: "d", events: ["record.issued"] })) }),
    () => ({ method: "POST", path: "/api/v1/domain-challenges", body: JSON.stringify(mutate({ domain: "example.org" })) }),
    () => ({ method: "POST", path: "/api/v1/wallet-challenges", body: JSON.stringify(mutate({ address: "11111111111111111111111111111111", network: "solana" })) }),
    () => ({ method: "POST", path: "/api/v1/mandate-keys", body: JSON.stringify(mutate({ key_id: "k1", public_key: "A".repeat(43) })) }),
    () => ({ method: "GET", path: `/api/v1/records?${pick(["claim_type", "status", "limit", "starting_after", "x"])}=${pick(PATH_SEGMENTS)}` }),
    () => ({ method: "GET", path: `/api/v1/records/${pick(PATH_SEGMENTS)}${pick(["", "/status", "/signature", "/history"])}` }),
    () => ({ method: "GET", path: `/${pick(["r", "keys", "api/v1/records", "review", "admin", "records"])}/${pick(PATH_SEGMENTS)}` }),
    () => ({ method: "GET", path: `/${pick(["review", "admin", "records", "signin", "confirm", "proofs", "r/PRS-00000000000000000000/qr"])}?${pick(["q", "claim_type", "token", "older_than", "format"])}=${pick(PATH_SEGMENTS)}` }),
    () => ({ method: pick(["PUT", "PATCH", "DELETE"]), path: `/api/v1/${pick(["records", "webhooks/" + pick(PATH_SEGMENTS), "mandate-keys/" + pick(PATH_SEGMENTS)])}`, body: "{}" }),
  ];
  void key;
  return Array.from({ length: ROUNDS }, () => pick(makers)());
}

describe(`seeded fuzzer (PRS_FUZZ_SEED=${SEED})`, () => {
  it(`${ROUNDS} hostile requests: no 5xx, every error in the envelope`, { timeout: 240_000 }, async () => {
    const { sandboxKey } = await newAccount("fuzz");
    const failures: string[] = [];
    for (const r of requests(prng(SEED), sandboxKey)) {
      const res = await fetch(baseUrl() + r.path, {
        method: r.method,
        redirect: "manual",
        headers: {
          Authorization: `Bearer ${sandboxKey}`, "Idempotency-Key": crypto.randomUUID(),
          ...(r.body !== undefined ? { "Content-Type": r.contentType ?? "application/json" } : {}),
        },
        body: r.body,
      });
      const text = await res.text();
      const what = `${r.method} ${r.path} ${r.body?.slice(0, 160) ?? ""} → ${res.status} ${text.slice(0, 200)}`;
      if (res.status >= 500) failures.push(what);
      else if (res.status >= 400 && r.path.startsWith("/api/")) {
        let body: { error?: { code?: unknown; request_id?: unknown } } | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        if (typeof body?.error?.code !== "string" || body.error.request_id !== res.headers.get("request-id")) failures.push(`no envelope: ${what}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

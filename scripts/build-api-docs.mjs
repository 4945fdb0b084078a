// Render docs/api.md from docs/api.src.md and the recorded exchanges in docs/examples/.
//
//   PRS_WRITE_EXAMPLES=1 node scripts/test.mjs tests/api/examples.test.ts   # record
//   node scripts/build-api-docs.mjs                                         # render
//
// Each line `<!-- example: NAME -->` of the source is replaced by the request and the
// response of docs/examples/NAME.json. A missing or malformed example fails the build
// (exit 1) and nothing is written.
import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SRC = path.join(root, "docs", "api.src.md");
const EXAMPLES = path.join(root, "docs", "examples");
const OUT = path.join(root, "docs", "api.md");
const DOC_BASE = "https://proof.example";
const PLACEHOLDER = /^\s*<!--\s*example:\s*([A-Za-z0-9_.-]+)\s*-->\s*$/;

/** Response headers worth showing, in this order and spelling. */
const SHOWN_HEADERS = [
  ["content-type", "Content-Type"],
  ["cache-control", "Cache-Control"],
  ["idempotent-replayed", "Idempotent-Replayed"],
  ["access-control-allow-origin", "Access-Control-Allow-Origin"],
  ["ratelimit-limit", "RateLimit-Limit"],
  ["ratelimit-remaining", "RateLimit-Remaining"],
  ["ratelimit-reset", "RateLimit-Reset"],
  ["retry-after", "Retry-After"],
  ["request-id", "Request-Id"],
];

const fence = (lang, text) => ["```" + lang, text.replace(/\n+$/, ""), "```"].join("\n");
const pretty = (v) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

function loadExample(name) {
  const file = path.join(EXAMPLES, `${name}.json`);
  if (!fs.existsSync(file)) return { error: `docs/examples/${name}.json is missing` };
  let ex;
  try {
    ex = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return { error: `docs/examples/${name}.json is not valid JSON (${e.message})` };
  }
  const ok =
    ex && typeof ex.request?.method === "string" && typeof ex.request?.path === "string" &&
    Number.isInteger(ex.response?.status) && "body" in ex.response;
  if (!ok) return { error: `docs/examples/${name}.json lacks request.method, request.path, response.status or response.body` };
  return { ex };
}

function render(ex) {
  const { request: req, response: res } = ex;
  const out = [];

  // A path that is already a full URL (a delivery to a customer endpoint) is shown as it is.
  const reqLines = [`${req.method} ${/^https?:\/\//.test(req.path) ? req.path : DOC_BASE + req.path}`];
  for (const [k, v] of Object.entries(req.headers ?? {})) reqLines.push(`${k}: ${v}`);
  out.push("**Request**", "", fence("http", reqLines.join("\n")));
  if (req.body !== undefined) out.push("", fence("json", pretty(req.body)));

  const resLines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ""}`.trimEnd()];
  const headers = Object.fromEntries(Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const [lower, shown] of SHOWN_HEADERS) if (headers[lower] !== undefined) resLines.push(`${shown}: ${headers[lower]}`);
  out.push("", "**Response**", "", fence("http", resLines.join("\n")));
  const isJson = typeof res.body !== "string" || /json/i.test(headers["content-type"] ?? "");
  out.push("", fence(isJson ? "json" : "", pretty(res.body)));
  if (Array.isArray(res.omitted_keys) && res.omitted_keys.length > 0) {
    out.push("", `*Abridged: the top-level ${res.omitted_keys.length === 1 ? "key" : "keys"} ${res.omitted_keys.map((k) => `\`${k}\``).join(", ")} ${res.omitted_keys.length === 1 ? "is" : "are"} left out here.*`);
  }
  return out.join("\n");
}

function main() {
  if (!fs.existsSync(SRC)) {
    console.error(`build-api-docs: ${path.relative(root, SRC)} not found`);
    return 1;
  }
  const src = fs.readFileSync(SRC, "utf8").replace(/\r\n/g, "\n");
  const problems = [];
  const used = new Set();
  let inFence = false;
  const lines = src.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = inFence ? null : PLACEHOLDER.exec(line);
    if (!m) return line;
    const name = m[1];
    used.add(name);
    const { ex, error } = loadExample(name);
    if (error) {
      problems.push(error);
      return line;
    }
    return render(ex);
  });
  if (problems.length > 0) {
    for (const p of problems) console.error(`build-api-docs: ${p}`);
    console.error("build-api-docs: record the examples with `PRS_WRITE_EXAMPLES=1 node scripts/test.mjs tests/api/examples.test.ts`; docs/api.md was not written.");
    return 1;
  }

  const header = [
    "<!--",
    "  GENERATED FILE — do not edit by hand.",
    "  Generated from docs/api.src.md + docs/examples/ by `npm run docs`",
    "  (tests/api/examples.test.ts records the examples, scripts/build-api-docs.mjs renders this file).",
    "-->",
    "",
    "",
  ].join("\n");
  const body = lines.join("\n").replace(/\n*$/, "\n");
  fs.writeFileSync(OUT, header + body);

  const unused = fs.existsSync(EXAMPLES)
    ? fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).filter((n) => !used.has(n))
    : [];
  if (unused.length > 0) console.warn(`build-api-docs: examples not referenced by docs/api.src.md: ${unused.join(", ")}`);
  console.log(`build-api-docs: wrote ${path.relative(root, OUT)} (${used.size} examples)`);
  return 0;
}

process.exit(main());

// `npm run new-claim-type <claim_type>`: scaffold a claim type — the one touch list of
// docs/claim-types.md:
//   lib/claims/<kebab>/index.ts      the definition (grouped: docs, request, check, …): evidence schema, validate, a check that
//                                    issues participant_attested (nothing checked yet: replace it) — the type's folder,
//                                    where its connector, sub-kit and API tests may go too
//   lib/claims/<kebab>/<kebab>.test.ts  its test, through the same validation a request gets
//   components/claims/<kebab>.tsx    the UI piece: what the certificate says it proves, its labels
//   lib/claims/registry.ts           one import and one entry in MODULES
//   components/claims/index.ts       one import and one entry in UI
//   docs/claim-types.md              an entry under "Types from the scaffold"
// `npm run new-claim-type -- --remove <claim_type>` undoes exactly that.
// Both then regenerate the SDK's snapshot of the OpenAPI document (`npm run sdk:generate`, in the
// tree written to: the registry builds the document, with the type's evidence schema, example
// and error codes), so packages/sdk/test/generated.test.ts stays green; `--no-sdk` leaves it
// (a tree without the SDK, as tests/scaffold.test.ts's partial copy).
// e2e/records-every-type.spec.ts needs nothing: a kind without a recipe of its own gets one
// generated from its form and example.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// PRS_SCAFFOLD_ROOT: another tree to write into (tests/scaffold.test.ts and scripts/test-scaffold.mjs work on copies).
const root = process.env.PRS_SCAFFOLD_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const CLAIM_TYPE_RE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;
const REGISTRY = "lib/claims/registry.ts";
const UI_INDEX = "components/claims/index.ts";
const DOCS = "docs/claim-types.md";
const DOCS_HEADING = "## Types from the scaffold";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const remove = flag("--remove");
const sdk = !flag("--no-sdk");
const [type, ...extra] = args.filter((a) => !["--remove", "--no-sdk"].includes(a));
if (!type || extra.length > 0 || !CLAIM_TYPE_RE.test(type) || type.length > 64) {
  console.error("usage: npm run new-claim-type [-- --no-sdk] <claim_type> | npm run new-claim-type -- --remove [--no-sdk] <claim_type>");
  console.error("claim_type: snake_case with at least one underscore (e.g. trade_licence), at most 64 characters");
  process.exit(2);
}
const kebab = type.replaceAll("_", "-");
const camel = type.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const pascal = camel[0].toUpperCase() + camel.slice(1);
const files = {
  module: `lib/claims/${kebab}/index.ts`,
  test: `lib/claims/${kebab}/${kebab}.test.ts`,
  ui: `components/claims/${kebab}.tsx`,
};

const abs = (f) => path.join(root, f);
const read = (f) => fs.readFileSync(abs(f), "utf8");
const write = (f, text) => fs.writeFileSync(abs(f), text);
const fail = (why) => {
  console.error(`new-claim-type: ${why}`);
  process.exit(1);
};

/** Add `name` (imported from `./file`) to the registry map in `file`: one import line, one entry. */
function register(file, name, from, mapPattern) {
  const text = read(file);
  const lines = text.split("\n");
  const lastImport = lines.findLastIndex((l) => l.startsWith("import "));
  lines.splice(lastImport + 1, 0, `import { ${name} } from "./${from}";`);
  const joined = lines.join("\n");
  if (!mapPattern.test(joined)) fail(`cannot find the registry list in ${file}`);
  write(file, joined.replace(mapPattern, (_, open, list, close) => `${open}${list.trimEnd().replace(/,$/, "")}, ${name}${close}`));
}

function unregister(file, name, from) {
  const text = read(file)
    .split("\n")
    .filter((l) => l !== `import { ${name} } from "./${from}";`)
    .join("\n")
    .replace(new RegExp(`, ${name}(?=[,\\]])`), "")
    .replace(new RegExp(`(?<=\\[)${name}, `), "");
  write(file, text);
}

/**
 * `npm run sdk:generate` in the tree written to: its own scripts/sdk-generate.ts, run from its
 * root, so `@/lib` is that tree's registry (the scaffolded type in it, or gone from it).
 */
function regenerateSdk() {
  if (!sdk) return console.log("SDK snapshot left as it was (--no-sdk): run `npm run sdk:generate`");
  const script = abs("scripts/sdk-generate.ts");
  if (!fs.existsSync(script)) fail(`no ${script} to regenerate the SDK's snapshot with (a partial tree? pass --no-sdk)`);
  const r = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), [script], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) fail(`npm run sdk:generate failed (exit ${r.status ?? r.signal}): the type's definition does not build an OpenAPI document`);
}

const MODULES_LIST = /(new Map<string, ClaimModule>\(\s*\[)([^\]]*)(\]\.map\(\(m\) => \[m\.type, m\]\))/;
const UI_LIST = /(new Map<string, ClaimUi>\(\[)([^\]]*)(\]\.map\(\(u\) => \[u\.type, u\]\))/;
const docsMarker = (end = false) => `<!-- ${end ? "/" : ""}new-claim-type: ${type} -->`;

if (remove) {
  for (const f of Object.values(files)) fs.rmSync(abs(f), { force: true });
  fs.rmSync(abs(`lib/claims/${kebab}`), { recursive: true, force: true }); // the type's folder
  unregister(REGISTRY, camel, kebab);
  unregister(UI_INDEX, `${camel}Ui`, kebab);
  const docs = read(DOCS);
  const start = docs.indexOf(docsMarker());
  const end = docs.indexOf(docsMarker(true));
  if (start >= 0 && end > start) {
    let next = docs.slice(0, start).trimEnd() + "\n" + docs.slice(end + docsMarker(true).length).replace(/^\n+/, "\n");
    // The heading goes with its last entry.
    if (!next.includes("<!-- new-claim-type: ")) next = next.replace(`\n${DOCS_HEADING}\n`, "").trimEnd() + "\n";
    write(DOCS, next);
  }
  console.log(`removed ${type}: ${Object.values(files).join(", ")}, its lines in ${REGISTRY}, ${UI_INDEX} and ${DOCS}`);
  regenerateSdk();
  process.exit(0);
}

for (const f of Object.values(files)) if (fs.existsSync(abs(f))) fail(`${f} exists already`);
if (fs.existsSync(abs(`lib/claims/${kebab}`)) || fs.existsSync(abs(`lib/claims/${kebab}.ts`))) fail(`lib/claims/${kebab} exists already`);
fs.mkdirSync(abs(`lib/claims/${kebab}`), { recursive: true });
// Every definition under lib/claims, a type's own folder (lib/claims/dex-control/) included.
const definitions = fs.readdirSync(abs("lib/claims"), { recursive: true }).filter((f) => /\.tsx?$/.test(f));
if (definitions.some((f) => read(path.join("lib/claims", f)).includes(`type: "${type}"`))) {
  fail(`claim type ${type} is taken`);
}

write(files.module, `import { z } from "zod";
import type { EvidenceLevel } from "@/lib/record-model/schemas";
import { evidenceRules, withEvidence } from "../field-rules";
import type { ClaimModule } from "../types";

const LEVELS: readonly EvidenceLevel[] = ["participant_attested"];

export const ${camel}Evidence = z
  .strictObject({ statement: z.string().trim().min(1).max(500).describe("What the account states, in its own words.") })
  .meta({ id: "${pascal}Evidence" });

/**
 * ${type}: generated by \`npm run new-claim-type\`. Nothing is checked yet: the record is the
 * account's own statement, issued at once at participant_attested, and says so. Replace the
 * check with a real one (a connector under lib/connectors/, an unreachable source → review).
 */
export const ${camel}: ClaimModule = {
  type: "${type}",
  docs: {
    describe: "\`${type}\`: \`{statement}\` (schema ${pascal}Evidence); issued at once at participant_attested (the account's own statement).",
    evidenceSchema: ${camel}Evidence,
    errors: ["field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "${type}, stated by the account (201)",
      value: { subject: "Acme Trading Ltd", claim_type: "${type}", claim: "Acme Trading Ltd states this.", evidence: { statement: "As stated." } },
    },
  },
  request: {
    levels: LEVELS,
    validate: (input) => evidenceRules(input, "${type}", ${camel}Evidence, LEVELS),
  },
  check: withEvidence(${camel}Evidence, async (_input, evidence) => ({ kind: "issue", evidenceLevel: "participant_attested", publicEvidence: evidence })),
  checking: { offline: true },
};
`);

write(files.test, `import { describe, expect, it } from "vitest";
import { claimModuleFor } from "../registry";
import { ${camel} } from "./index";

const request = ${camel}.docs.example.value;

describe("${type}", async () => {
  const { validateRecordInput } = await import("@/lib/records/create-record");

  it("is registered, and a request of its type travels with its module", () => {
    expect(claimModuleFor("${type}")).toBe(${camel});
    expect(validateRecordInput(request).module).toBe(${camel});
  });

  it("refuses what it does not take", () => {
    expect(() => validateRecordInput({ ...request, evidence: {} })).toThrow(/statement/);
    expect(() => validateRecordInput({ ...request, source_name: "A register" })).toThrow(/source_name/);
    expect(() => validateRecordInput({ ...request, evidence_level: "source_verified" })).toThrow(/participant_attested/);
  });

  it("issues the statement as the account's own", async () => {
    const { input } = validateRecordInput(request);
    const outcome = await ${camel}.check(input, {} as never);
    expect(outcome).toEqual({ kind: "issue", evidenceLevel: "participant_attested", publicEvidence: { statement: "As stated." } });
  });
});
`);

write(files.ui, `import { shown, type ClaimUi } from "./types";

export const ${camel}Ui: ClaimUi = {
  type: "${type}",
  labels: { statement: "Statement" },
  scope: (evidence) => ({
    proved: <>The account stated: {shown(evidence, "statement")}</>,
    notProved: "Anything beyond the account's own statement: nothing was checked against a source.",
  }),
};
`);

register(REGISTRY, camel, kebab, MODULES_LIST);
register(UI_INDEX, `${camel}Ui`, kebab, UI_LIST);

const docs = read(DOCS).trimEnd();
write(DOCS, `${docs}${docs.includes(DOCS_HEADING) ? "" : `\n\n${DOCS_HEADING}`}

${docsMarker()}
### \`${type}\`

The account's own statement (\`evidence.statement\`), issued at participant_attested; nothing
is checked yet. Definition \`${files.module}\`, UI piece \`${files.ui}\`, test \`${files.test}\`.
${docsMarker(true)}
`);

console.log(`created ${type}: ${Object.values(files).join(", ")}; one entry each in ${REGISTRY} and ${UI_INDEX}; an entry in ${DOCS}`);
regenerateSdk();
console.log("next: fill in its check and docs, then `npm run sdk:generate` again (the SDK's snapshot of the OpenAPI document follows them)");

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ClaimModule } from "@/lib/claims/types";

/**
 * `npm run new-claim-type` on a copy of the parts it writes (lib/claims, components/claims,
 * docs/claim-types.md): the type it generates is registered, validated, checked and documented
 * by the service's own pipeline and OpenAPI builder, and `--remove` leaves the copy as it was.
 * The copy has no SDK, so `--no-sdk`. The full proof — the type-iterating unit, API and e2e
 * tests and the SDK's snapshot passing with a generated type, in a whole copy of the
 * repository — is `npm run test:scaffold` (scripts/test-scaffold.mjs).
 */
const repo = path.resolve(import.meta.dirname, "..");
const copy = fs.mkdtempSync(path.join(os.tmpdir(), "prs-scaffold-"));
const PARTS = ["lib/claims", "components/claims", "docs/claim-types.md"];
for (const p of PARTS) fs.cpSync(path.join(repo, p), path.join(copy, p), { recursive: true });
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

const scaffold = (...args: string[]) =>
  execFileSync(process.execPath, [path.join(repo, "scripts/new-claim-type.mjs"), "--no-sdk", ...args], {
    env: { ...process.env, PRS_SCAFFOLD_ROOT: copy }, encoding: "utf8",
  });

function snapshot(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = path.join(copy, rel);
    if (fs.statSync(abs).isDirectory()) for (const e of fs.readdirSync(abs).sort()) walk(path.join(rel, e));
    else out.set(rel, fs.readFileSync(abs, "utf8"));
  };
  PARTS.forEach(walk);
  return out;
}

describe("npm run new-claim-type", () => {
  const before = snapshot();

  it("writes one definition, one UI piece, one test, one line in each registry and a docs entry", () => {
    scaffold("toy_statement");
    const after = snapshot();
    const added = [...after.keys()].filter((f) => !before.has(f)).sort();
    expect(added).toEqual(["components/claims/toy-statement.tsx", "lib/claims/toy-statement/index.ts", "lib/claims/toy-statement/toy-statement.test.ts"]);
    const changed = [...before.keys()].filter((f) => after.get(f) !== before.get(f)).sort();
    expect(changed).toEqual(["components/claims/index.ts", "docs/claim-types.md", "lib/claims/registry.ts"]);
    expect(after.get("lib/claims/registry.ts")).toMatch(/import \{ toyStatement \} from "\.\/toy-statement";[\s\S]*, toyStatement\]\.map/);
    expect(after.get("components/claims/index.ts")).toMatch(/import \{ toyStatementUi \} from "\.\/toy-statement";[\s\S]*, toyStatementUi\]\.map/);
    expect(() => scaffold("toy_statement")).toThrow(/exists already/);
  });

  it("generates a type the pipeline validates, checks and documents", async () => {
    const { toyStatement } = (await import(path.join(copy, "lib/claims/toy-statement/index.ts"))) as { toyStatement: ClaimModule };
    const { registerClaimType, claimModuleFor } = await import("@/lib/claims/registry");
    registerClaimType(toyStatement);
    expect(claimModuleFor("toy_statement")).toBe(toyStatement);

    const { validateRecordInput } = await import("@/lib/records/create-record");
    const request = toyStatement.docs.example.value;
    const { input, module } = validateRecordInput(request);
    expect(module).toBe(toyStatement);
    expect(toyStatement.checking?.offline).toBe(true); // the grouped contract: its check does no I/O
    expect(() => validateRecordInput({ ...request, evidence: {} })).toThrow(/statement/);
    expect(() => validateRecordInput({ ...request, evidence_level: "source_verified" })).toThrow(/participant_attested/);
    expect(await toyStatement.check(input, {} as never)).toEqual({
      kind: "issue", evidenceLevel: "participant_attested", publicEvidence: { statement: "As stated." },
    });

    const { buildOpenApi } = await import("@/lib/openapi/build-openapi");
    const doc = JSON.stringify(buildOpenApi("https://proof.example"));
    expect(doc).toContain("ToyStatementEvidence");
    expect(doc).toContain("toy_statement");

    const { toyStatementUi } = (await import(path.join(copy, "components/claims/toy-statement.tsx"))) as { toyStatementUi: { type: string; labels?: Record<string, string> } };
    expect(toyStatementUi).toMatchObject({ type: "toy_statement", labels: { statement: "Statement" } });
  });

  it("--remove leaves the tree as it was", () => {
    scaffold("--remove", "toy_statement");
    expect(snapshot()).toEqual(before);
  });
});

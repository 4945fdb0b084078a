import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSpecifier, runtimeImports } from "../../tests/structure/import-graph";
import { knownClaimTypes } from "./registry";

/**
 * A claim type is one definition (lib/claims/<type>.ts) plus its UI piece
 * (components/claims/<type>.tsx): no other source file names it as a string, so nothing
 * else can branch on it, and none imports a claim module or a UI piece — only the registry
 * (lib/claims/registry.ts, components/claims/index.ts), the shared contracts (types.ts) and
 * the shared helpers beside them. Prose inside a longer string or a comment is not a name.
 */
const root = path.resolve(import.meta.dirname, "..", "..");
// scripts/ holds API clients (benchmarks) that send claim types as request data, like any customer.
const SOURCE_DIRS = ["lib", "app", "components"];
const OWN_DIRS = ["lib/claims/", "components/claims/"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [rel] : [];
  });
}

const read = (f: string) => fs.readFileSync(path.join(root, f), "utf8");
const outside = SOURCE_DIRS.flatMap(sourceFiles).filter((f) => !OWN_DIRS.some((d) => f.startsWith(d)));

/**
 * The definition files `file` imports, in any form — `@/` or relative, `import`, `import type`,
 * `export … from` or `import()` — read with the TypeScript parser and resolved as the project
 * resolves them (tests/structure/import-graph.ts).
 */
function definitionImports(file: string, text: string, definitions: readonly string[]): string[] {
  const wanted = new Set(definitions.map((d) => d.replace(/\.tsx?$/, "")));
  return runtimeImports(path.join(root, file), text, { withTypes: true })
    .map((spec) => resolveSpecifier(root, path.join(root, file), spec))
    .filter((r): r is string => r !== null)
    .map((r) => path.relative(root, r).replace(/\.tsx?$/, ""))
    .filter((r) => wanted.has(r));
}

/** The files the registries import their definitions from: the claim modules and the UI pieces. */
function definitionFiles(registry: string, dir: string): string[] {
  const imports = [...read(registry).matchAll(/from "\.\/([a-z0-9-]+)"/g)].map((m) => m[1]!);
  return imports.filter((f) => !["types", "nearest-claim-type"].includes(f)).map((f) => `${dir}/${f}`);
}
const DEFINITIONS = [...definitionFiles("lib/claims/registry.ts", "lib/claims"), ...definitionFiles("components/claims/index.ts", "components/claims")];

describe("claim types are named only by their own files", () => {
  const types = knownClaimTypes();

  it("knows every type", () => {
    expect(types.length).toBeGreaterThanOrEqual(10);
    expect(DEFINITIONS.length).toBeGreaterThanOrEqual(types.length);
  });

  it.each(types)("no file outside lib/claims and components/claims names %s", (type) => {
    const literal = new RegExp(`["'\`]${type}["'\`]`);
    expect(outside.filter((f) => literal.test(read(f)))).toEqual([]);
  });

  it("no file outside lib/claims and components/claims imports a claim module or a UI piece", () => {
    const importing = outside.flatMap((f) => definitionImports(f, read(f), DEFINITIONS).map((d) => `${f} imports ${d}`));
    expect(importing).toEqual([]);
  });

  it("the import check sees every form of import: alias, relative, type-only, re-export, dynamic", () => {
    const forms = [
      'import { walletOwnership } from "@/lib/claims/wallet-ownership";',
      'import { walletOwnership } from "../claims/wallet-ownership";',
      'import type { X } from "../claims/wallet-ownership";',
      'export { walletOwnership } from "../claims/wallet-ownership";',
      'const m = await import("../claims/wallet-ownership");',
    ];
    for (const text of forms) expect(definitionImports("lib/records/x.ts", text, DEFINITIONS), text).toEqual(["lib/claims/wallet-ownership"]);
    expect(definitionImports("lib/records/x.ts", 'import { claimModuleFor } from "../claims/registry";', DEFINITIONS)).toEqual([]);
  });
});

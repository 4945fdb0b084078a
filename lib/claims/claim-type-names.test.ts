import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A claim type is one definition (lib/claims/<type>.ts) plus its UI piece
 * (components/claims/<type>.tsx): no other source file names it as a string, so nothing
 * else can branch on it. Connector clients may mention it in prose only.
 */
const root = path.resolve(import.meta.dirname, "..", "..");
const SOURCE_DIRS = ["lib", "app", "components", "scripts"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [rel] : [];
  });
}

describe("claim types are named only by their own files", () => {
  const files = SOURCE_DIRS.flatMap(sourceFiles);

  it.each(["company_identity", "evm_transaction"])("%s", (type) => {
    const literal = new RegExp(`["'\`]${type}["'\`]`);
    const naming = files.filter((f) => literal.test(fs.readFileSync(path.join(root, f), "utf8")));
    const kebab = type.replaceAll("_", "-");
    expect(naming.sort()).toEqual([`components/claims/${kebab}.tsx`, `lib/claims/${kebab}.ts`]);
  });
});

import path from "node:path";
import { describe, expect, it } from "vitest";
import { circleEdges, circles, importGraph, runtimeImports, withTempTree } from "./import-graph";

/*
 * Issue 40: lower layers never call upward, and no runtime import circle runs through lib/
 * (docs/architecture.md). A circle makes the order modules are first evaluated in matter: it
 * once left a claim schema read before it was made (a 500 at start). Type-only imports vanish
 * at compile time and do not count; a dynamic import() does (it only hides the circle).
 */
const root = path.resolve(import.meta.dirname, "../..");

describe("the import structure of lib/", () => {
  it("has no runtime import circle", () => {
    const graph = importGraph(root, "lib");
    expect(graph.size).toBeGreaterThan(250); // the whole of lib/ was read, not a corner of it
    expect(circleEdges(graph), "the imports that close a circle (break one of each: pass the value in, or move the code up a layer)").toEqual([]);
  });

  it("the graph's edges are the runtime imports: type-only imports are left out, re-exports and dynamic imports kept", () => {
    const text = [
      'import type { A } from "@/lib/a";',
      'import { type B, type C } from "./b";',
      'import { d, type E } from "./d";',
      'export type { F } from "./f";',
      'export { g } from "./g";',
      'import "./side-effect";',
      'const h = await import("@/lib/h");',
    ].join("\n");
    expect(runtimeImports("/x/lib/y.ts", text).sort()).toEqual(["./d", "./g", "./side-effect", "@/lib/h"].sort());
  });

  it("finds a circle added on purpose, through an alias, a relative import, a re-export or a dynamic import", () => {
    withTempTree("prs-circle-", (tmp, write) => {
      write("lib/low/a.ts", 'import { b } from "@/lib/high/b";\nexport const a = () => b;\n');
      write("lib/high/b.ts", 'export { c as b } from "../mid/c";\n');
      write("lib/mid/c.ts", 'export async function c() { return (await import("../low/a")).a; }\n');
      write("lib/low/typed.ts", 'import type { b } from "@/lib/high/b";\nexport type T = typeof b;\n');
      write("lib/high/uses-typed.ts", 'import "@/lib/low/typed";\n');
      const graph = importGraph(tmp, "lib");
      expect(circles(graph)).toEqual([["lib/high/b.ts", "lib/low/a.ts", "lib/mid/c.ts"]]);
      expect(circleEdges(graph)).toEqual(["lib/high/b.ts -> lib/mid/c.ts", "lib/low/a.ts -> lib/high/b.ts", "lib/mid/c.ts -> lib/low/a.ts"]);
      // Made type-only, the same import closes nothing.
      write("lib/low/a.ts", 'import type { b } from "@/lib/high/b";\nexport const a = (x: typeof b) => x;\n');
      expect(circles(importGraph(tmp, "lib"))).toEqual([]);
    });
  });
});

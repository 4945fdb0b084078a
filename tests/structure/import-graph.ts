import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";

/**
 * The runtime import graph of a source folder, read with the TypeScript compiler's own parser
 * (no module is run): an edge for every `import`/`export … from` that brings a value — `import
 * type`, `export type` and imports whose every name is `type` are left out, they vanish at
 * compile time — and for every dynamic `import()` (a deferred import is still a dependency that
 * runs: hiding a circle behind one is what this graph is meant to show). Specifiers are
 * resolved as the project resolves them: `@/` from the repository root, relative ones from the
 * file, with the .ts/.tsx/.mjs/index extensions. Only edges between files of the folder count.
 */
export type Graph = Map<string, Set<string>>;

const EXTENSIONS = [".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.(test|d)\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out.sort();
}

/** The file an import specifier names, as the project resolves it; null for a package or a file that is not there. */
export function resolveSpecifier(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(root, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null; // a package
  if (fs.existsSync(base) && fs.statSync(base).isFile()) return base;
  for (const ext of EXTENSIONS) if (fs.existsSync(base + ext)) return base + ext;
  return null;
}

/** The specifiers a file imports at run time (see the module comment); with `withTypes`, its type-only imports too. */
export function runtimeImports(file: string, text = fs.readFileSync(file, "utf8"), o: { withTypes?: boolean } = {}): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const spec = (n: ts.Expression | undefined) => (n && ts.isStringLiteral(n) ? n.text : null);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const typeOnly = c && (c.isTypeOnly || (!c.name && c.namedBindings && ts.isNamedImports(c.namedBindings)
        && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      const s = spec(node.moduleSpecifier);
      if (s && (o.withTypes || !typeOnly)) out.push(s);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const typeOnly = node.isTypeOnly || (node.exportClause && ts.isNamedExports(node.exportClause)
        && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly));
      const s = spec(node.moduleSpecifier);
      if (s && (o.withTypes || !typeOnly)) out.push(s);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const s = spec(node.arguments[0]);
      if (s) out.push(s);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The runtime graph of `dir` (paths relative to `root`). */
export function importGraph(root: string, dir: string): Graph {
  const files = sourceFiles(path.join(root, dir));
  const inside = new Set(files);
  const graph: Graph = new Map();
  for (const f of files) {
    const to = new Set<string>();
    for (const s of runtimeImports(f)) {
      const r = resolveSpecifier(root, f, s);
      if (r && inside.has(r) && r !== f) to.add(path.relative(root, r));
    }
    graph.set(path.relative(root, f), to);
  }
  return graph;
}

/** The circles: strongly connected components of more than one file (Tarjan), each sorted, largest first. */
export function circles(graph: Graph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out.sort((a, b) => b.length - a.length);
}

/** The edges that close circles: both ends in one circle, as `from -> to`, sorted. */
export function circleEdges(graph: Graph): string[] {
  const member = new Map<string, number>();
  circles(graph).forEach((c, i) => c.forEach((f) => member.set(f, i)));
  const out: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) if (member.has(from) && member.get(from) === member.get(to)) out.push(`${from} -> ${to}`);
  }
  return out.sort();
}

/** Run `body` on a throw-away source tree (`write(path, text)` adds a file), removed afterwards. */
export function withTempTree<T>(prefix: string, body: (root: string, write: (p: string, text: string) => void) => T): T {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return body(root, (p, text) => {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), text);
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

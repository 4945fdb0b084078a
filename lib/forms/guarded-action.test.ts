import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { actionInputProblem, errorState, guardedAction, MAX_ACTION_TEXT } from "./guarded-action";

const root = path.resolve(import.meta.dirname, "../..");

/** Every file under app/, lib/ and components/ that starts with the "use server" directive (the files Next turns into server actions). */
function serverActionFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "app", "lib", "components"], { cwd: root, encoding: "utf8" });
  return out.split("\n").filter((f) => /\.(ts|tsx)$/.test(f) && fs.existsSync(path.join(root, f))).filter((f) => {
    const src = ts.createSourceFile(f, fs.readFileSync(path.join(root, f), "utf8"), ts.ScriptTarget.Latest, true);
    const first = src.statements[0];
    return first !== undefined && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) && first.expression.text === "use server";
  });
}

/** The exports of a "use server" file that are not wrapped in guardedAction(…), as "file: name". */
function unguardedExports(file: string): string[] {
  const src = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const bad: string[] = [];
  const exported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const s of src.statements) {
    if (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) continue;
    if (ts.isExportDeclaration(s)) {
      if (!s.isTypeOnly) bad.push(`${file}: export { … } (re-exports bypass the guard)`);
      continue;
    }
    if (ts.isExportAssignment(s)) { bad.push(`${file}: export default`); continue; }
    if (!exported(s)) continue;
    if (ts.isFunctionDeclaration(s)) { bad.push(`${file}: ${s.name?.text ?? "function"}`); continue; }
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        const init = d.initializer;
        const wrapped = init !== undefined && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === "guardedAction";
        if (!wrapped) bad.push(`${file}: ${d.name.getText(src)}`);
      }
      continue;
    }
    bad.push(`${file}: ${ts.SyntaxKind[s.kind]}`);
  }
  return bad;
}

describe("every server action goes through the input guard", () => {
  it("finds the server-action files (the walk is not vacuous)", () => {
    const files = serverActionFiles();
    expect(files).toEqual(expect.arrayContaining(["app/developers/actions.ts", "app/records/new/actions.ts", "app/signup/actions.ts", "lib/records/principal-form-action.ts"]));
    expect(files.length).toBeGreaterThanOrEqual(16);
  });

  it("each export of each \"use server\" file is guardedAction(…)", () => {
    expect(serverActionFiles().flatMap(unguardedExports)).toEqual([]);
  });

  it("no inline server action (a \"use server\" directive inside a function body) escapes the walk", () => {
    const out = execFileSync("git", ["ls-files", "app", "lib", "components"], { cwd: root, encoding: "utf8" });
    const inline = out.split("\n").filter((f) => /\.(ts|tsx)$/.test(f) && fs.existsSync(path.join(root, f)))
      .filter((f) => /^[ \t]+["']use server["'];?[ \t]*$/m.test(fs.readFileSync(path.join(root, f), "utf8")));
    expect(inline).toEqual([]);
  });

  it("the walk itself notices an unwrapped action, a re-export and a default export", () => {
    const dir = fs.mkdtempSync(path.join(root, "node_modules", ".guard-walk-"));
    try {
      const file = path.relative(root, path.join(dir, "actions.ts"));
      fs.writeFileSync(path.join(root, file), [
        '"use server";', "export type S = { error?: string };",
        "export const ok = guardedAction(async () => ({}), errorState);",
        "export async function raw() { return {}; }", "export const alias = raw;", "export { raw as again };", "export default raw;",
      ].join("\n"));
      expect(unguardedExports(file)).toEqual([`${file}: raw`, `${file}: alias`, `${file}: export { … } (re-exports bypass the guard)`, `${file}: export default`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("actionInputProblem", () => {
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };

  it("refuses a NUL, a lone surrogate and an overlong text in any form field, and names the field", () => {
    expect(actionInputProblem([{}, form({ key_id: "ok", public_key: "a\u0000b" })])).toBe("The field 'public_key' must not contain the NUL character (U+0000).");
    // (A lone surrogate cannot be in FormData: its strings are USVStrings. It can come in a JSON argument, below.)
    expect(actionInputProblem([{}, form({ claim: "x".repeat(MAX_ACTION_TEXT + 1) })])).toBe(`The field 'claim' is longer than 100,000 characters.`);
    expect(actionInputProblem([{}, form({ "bad\u0000name": "x" })])).toBe("A field name must not contain the NUL character (U+0000).");
    const withFile = new FormData();
    withFile.append("documents", new File(["%PDF"], "scan\u0000.pdf"));
    expect(actionInputProblem([{}, withFile])).toBe("The field 'documents' must not contain the NUL character (U+0000).");
  });

  it("refuses the same in plain arguments and in a form's previous state", () => {
    expect(actionInputProblem(["a@example.com\u0000"])).toBe("The value sent must not contain the NUL character (U+0000).");
    expect(actionInputProblem([{ environment: "sandbox", address: "\udc00" }])).toBe("The field 'address' is not well-formed Unicode (it contains a lone surrogate).");
    expect(actionInputProblem([{ values: { key_id: "k\u0000" } }, form({})])).toBe("The field 'values.key_id' must not contain the NUL character (U+0000).");
    expect(actionInputProblem([JSON.parse('{"__proto__": {"x": 1}}')])).toBe("Unknown field '__proto__'.");
    expect(actionInputProblem([{ a: ["y".repeat(MAX_ACTION_TEXT + 1)] }])).toBe("A value sent is longer than 100,000 characters.");
  });

  it("takes ordinary input: text up to the bound, emoji (well-formed pairs), accents, empty forms, no arguments", () => {
    expect(actionInputProblem([{}, form({ claim: "x".repeat(MAX_ACTION_TEXT), subject: "Ça va 🚀", empty: "" })])).toBeNull();
    expect(actionInputProblem([{ attempt: 1, values: { a: "b" } }, form({})])).toBeNull();
    expect(actionInputProblem(["user@example.com"])).toBeNull();
    expect(actionInputProblem([])).toBeNull();
  });
});

describe("guardedAction", () => {
  it("answers the refusal without running the action; passes good input through", async () => {
    const ran: unknown[][] = [];
    const action = guardedAction(async (prev: { error?: string }, f: FormData): Promise<{ error?: string }> => {
      ran.push([prev, f.get("name")]);
      return {};
    }, errorState);
    const bad = new FormData();
    bad.append("name", "evil\u0000");
    expect(await action({}, bad)).toEqual({ error: "The field 'name' must not contain the NUL character (U+0000). Nothing was saved: remove it and send the form again." });
    expect(ran).toEqual([]);
    const good = new FormData();
    good.append("name", "Acme");
    expect(await action({}, good)).toEqual({});
    expect(ran).toEqual([[{}, "Acme"]]);
  });
});

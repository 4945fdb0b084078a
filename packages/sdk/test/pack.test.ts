// `npm pack` builds the package (prepack: tsc to dist/) and what it packs loads as plain ESM.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const SDK = path.resolve(import.meta.dirname, "..");

it("npm pack builds dist/ (ESM + .d.ts), and the packed package loads in node", () => {
  // Inside the repository, so the packed copy finds its dependencies in the root node_modules; a folder of
  // this process's own: CI runs both databases' suites at once in one checkout.
  const out = path.join(SDK, `.pack-${process.pid}`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out);
  // prepack rebuilds dist/ in place: one `npm pack` at a time in this checkout (flock waits for the other's to end).
  const lock = path.join(SDK, ".pack.lock");
  const packed = JSON.parse(execFileSync("flock", [lock, "npm", "pack", "--json", "--pack-destination", out], { cwd: SDK, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  const files = (packed[0].files as { path: string }[]).map((f) => f.path);
  expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/client.js", "dist/generated/openapi.d.ts", "openapi.json", "README.md", "package.json"]));
  expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);

  execFileSync("tar", ["-xzf", path.join(out, packed[0].filename), "-C", out]);
  const probe = `
    const sdk = await import(${JSON.stringify(path.join(out, "package", "dist", "index.js"))});
    const c = new sdk.PrsClient({ baseUrl: "https://proof.example" });
    console.log(JSON.stringify({
      create: typeof c.records.create, lookup: typeof c.lookup, jwks: typeof c.jwks,
      helpers: [sdk.verifyStatus, sdk.verifyLookup, sdk.verifyCheck, sdk.verifyWebhook].map((f) => typeof f),
      error: new sdk.NotFoundError({ status: 404, type: "not_found", code: "record_not_found", message: "x" }) instanceof sdk.PrsError,
    }));`;
  const seen = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }));
  expect(seen).toEqual({ create: "function", lookup: "function", jwks: "function", helpers: ["function", "function", "function", "function"], error: true });
  fs.rmSync(out, { recursive: true, force: true });
}, 120_000);

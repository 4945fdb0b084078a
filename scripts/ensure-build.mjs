// Build the Next app only when its inputs changed since the last build.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { checkNode } from "./check-node.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const INPUTS = ["app", "components", "lib", "drizzle", "public", "instrumentation.ts", "proxy.ts", "next.config.ts",
  "package-lock.json", "postcss.config.mjs", "tsconfig.json"];

function walk(p, out) {
  if (!fs.existsSync(p)) return;
  const st = fs.statSync(p);
  if (st.isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e), out);
  else if (!/\.test\.tsx?$/.test(p)) out.push(p);
}

export function sourceHash() {
  const files = [];
  for (const i of INPUTS) walk(path.join(root, i), files);
  const h = createHash("sha256");
  for (const f of files) h.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f));
  return h.digest("hex");
}

export function ensureBuild() {
  checkNode();
  // The embed badge's bundle (build/embed/embed.js) is served by the app, not part of Next's
  // build: it is rebuilt every time (≈ 0.1 s), so it always matches the sources.
  const embed = spawnSync(process.execPath, [path.join(root, "scripts", "build-embed.mjs")], { cwd: root, stdio: "inherit" });
  if (embed.status !== 0) process.exit(embed.status ?? 1);
  const stamp = path.join(root, ".next", "prs-build-hash");
  const hash = sourceHash();
  if (fs.existsSync(path.join(root, ".next", "BUILD_ID")) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash) return;
  console.log("[prs] building the app (sources changed or no build yet) ...");
  const r = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  fs.writeFileSync(stamp, hash);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();

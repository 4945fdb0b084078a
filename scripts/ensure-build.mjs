// Build the Next app only when its inputs changed since the last build.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
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

/**
 * Finished builds are kept under their sources' hash (PRS_BUILD_CACHE, default
 * ~/.cache/proof-records/next-builds; "off" keeps none), so a fresh clone of sources already
 * built on this machine — CI's clean clone of a tree a session tested — copies the build
 * instead of making it again. The copy leaves out Next's own compiler cache; the checkout's
 * path, which Next writes into required-server-files, is put right. The newest three are kept.
 */
const cacheRoot = () => {
  const dir = process.env.PRS_BUILD_CACHE ?? path.join(os.homedir(), ".cache", "proof-records", "next-builds");
  return dir === "off" ? null : dir;
};
const KEEP_BUILDS = 3;
const FROM_ROOT = "prs-build-root";

function restoreBuild(hash) {
  const dir = cacheRoot();
  const cached = dir && path.join(dir, hash);
  if (!cached || !fs.existsSync(path.join(cached, "BUILD_ID"))) return false;
  const next = path.join(root, ".next");
  fs.rmSync(next, { recursive: true, force: true });
  fs.cpSync(cached, next, { recursive: true, verbatimSymlinks: true });
  const marker = path.join(next, FROM_ROOT);
  const builtAt = fs.existsSync(marker) ? fs.readFileSync(marker, "utf8") : root;
  if (builtAt !== root) {
    for (const f of ["required-server-files.json", "required-server-files.js"]) {
      const p = path.join(next, f);
      if (fs.existsSync(p)) fs.writeFileSync(p, fs.readFileSync(p, "utf8").replaceAll(builtAt, root));
    }
  }
  fs.writeFileSync(path.join(next, FROM_ROOT), root);
  console.log(`[prs] build ${hash.slice(0, 12)} copied from ${cached} (same sources already built on this machine)`);
  return true;
}

function keepBuild(hash) {
  const dir = cacheRoot();
  if (!dir) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const part = path.join(dir, `${hash}.part-${process.pid}`);
    fs.cpSync(path.join(root, ".next"), part, {
      recursive: true, verbatimSymlinks: true,
      filter: (src) => !src.startsWith(path.join(root, ".next", "cache")) && !/\/trace(-build)?$/.test(src),
    });
    fs.rmSync(path.join(dir, hash), { recursive: true, force: true });
    fs.renameSync(part, path.join(dir, hash));
    const builds = fs.readdirSync(dir).filter((d) => !d.includes(".part-"))
      .map((d) => ({ d, t: fs.statSync(path.join(dir, d)).mtimeMs })).sort((a, b) => b.t - a.t);
    for (const { d } of builds.slice(KEEP_BUILDS)) fs.rmSync(path.join(dir, d), { recursive: true, force: true });
  } catch (e) {
    console.warn(`[prs] could not keep the build in ${dir}: ${e.message}`);
  }
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
  if (restoreBuild(hash)) return;
  console.log("[prs] building the app (sources changed or no build yet) ...");
  const r = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  fs.writeFileSync(stamp, hash);
  fs.writeFileSync(path.join(root, ".next", FROM_ROOT), root);
  keepBuild(hash);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();

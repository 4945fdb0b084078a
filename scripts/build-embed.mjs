// Bundle the embed badge (lib/public/embed/badge.ts) into one small browser script, build/embed/embed.js,
// which GET /embed.js serves (lib/public/embed/embed-script.ts). Run before every Next build
// (scripts/ensure-build.mjs, npm run build); deterministic for one esbuild version.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const EMBED_OUT = path.join(root, "build", "embed", "embed.js");

export async function buildEmbed() {
  const result = await build({
    entryPoints: [path.join(root, "lib", "public", "embed", "badge.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    minify: true,
    legalComments: "eof",
    charset: "utf8",
    tsconfig: path.join(root, "tsconfig.json"),
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0].contents;
  fs.mkdirSync(path.dirname(EMBED_OUT), { recursive: true });
  // Written whole and renamed into place: two test runs side by side (.ci/run) rebuild it while
  // a server may be reading it, and a reader must never see half a file.
  const tmp = `${EMBED_OUT}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, EMBED_OUT);
  return { bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bytes, gzipBytes } = await buildEmbed();
  console.log(`[prs] embed.js: ${bytes} bytes, ${gzipBytes} gzipped`);
}

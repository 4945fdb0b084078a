import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The embed badge's script as served: the bundle scripts/build-embed.mjs writes before every
 * build (build/embed/embed.js), with its version (the first 16 hex digits of its SHA-256) and
 * its Subresource Integrity value. Read once per process; null when the bundle is missing
 * (a build that skipped scripts/build-embed.mjs).
 */
export type EmbedScript = { code: Buffer; version: string; integrity: string };

let loaded: EmbedScript | null | undefined;

export function embedScript(): EmbedScript | null {
  if (loaded !== undefined) return loaded;
  try {
    const code = fs.readFileSync(path.join(process.cwd(), "build", "embed", "embed.js"));
    loaded = {
      code,
      version: createHash("sha256").update(code).digest("hex").slice(0, 16),
      integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
    };
  } catch {
    loaded = null;
  }
  return loaded;
}

/** The versioned address of this build's script: cached for a year, it never changes. */
export const versionedEmbedPath = (version: string) => `/embed/${version}.js`;

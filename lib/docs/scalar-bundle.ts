import fs from "node:fs/promises";
import path from "node:path";
import { log } from "@/lib/log/logger";

/**
 * Scalar's standalone browser bundle (@scalar/api-reference), read from node_modules once
 * per process: /docs/api-reference.js serves it, /docs names its version in the URL.
 */
const PACKAGE_DIR = path.join(process.cwd(), "node_modules", "@scalar", "api-reference");

export type ScalarBundle = { version: string; body: string };

let bundle: Promise<ScalarBundle | null> | undefined;

/** Null when the package is not installed (the page then links to the JSON document and the guide). */
export function scalarBundle(): Promise<ScalarBundle | null> {
  bundle ??= (async () => {
    try {
      const pkg = JSON.parse(await fs.readFile(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string };
      const js = await fs.readFile(path.join(PACKAGE_DIR, "dist", "browser", "standalone.js"), "utf8");
      // The source map is not served: drop the comment so devtools do not ask for it.
      return { version: pkg.version, body: js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n") };
    } catch (err) {
      log().error({ err }, "Scalar's standalone bundle is missing; /docs falls back to links");
      return null;
    }
  })();
  return bundle;
}

/** The bundle's URL, versioned so it can be cached for a year. */
export const scalarBundleUrl = (version: string) => `/docs/api-reference.js?v=${encodeURIComponent(version)}`;

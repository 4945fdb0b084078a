import path from "node:path";
import { defineConfig } from "vitest/config";

/** `npm run test:cluster` only (scripts/test-cluster.mjs): not part of `npm test`. */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "..", "..") } },
  test: {
    root: path.resolve(import.meta.dirname, "..", ".."),
    include: ["tests/cluster/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
  },
});

import { defineConfig } from "vitest/config";

// The verifier's own tests: no server, no database (the root suite's global setup is not needed).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});

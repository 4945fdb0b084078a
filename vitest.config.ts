import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Two projects, run one after the other against the one test server (files never run side
 * by side: many share the server's rate limits and the directory).
 *
 * - `shared`: files that only talk to servers over HTTP or test pure functions share one
 *   process (`isolate: false`), so viem, jose, the VC libraries and the test helpers load once
 *   rather than once per file (~1–2 s apiece). Such a file must leave nothing behind: no
 *   changed `process.env`, no mocks, no module state another file could read.
 * - `isolated`: a fresh process per file, for the files that set the environment before the
 *   service's modules read it, open the service's database in-process (`tests/db/`,
 *   `useOwnDatabase`), or mock.
 */
const ISOLATED = [
  "tests/db/**/*.test.ts",
  "tests/api/witness.test.ts", // opens a database of its own in-process (useOwnDatabase)
  "lib/auth/auth.test.ts",
  "lib/auth/password-padding.test.ts",
  "lib/connectors/evm-confirmations.test.ts",
  "lib/mail/send-mail.test.ts",
  "lib/openapi/build-openapi.test.ts",
  "lib/tlog/witness-env.test.ts",
  "packages/sdk/test/generated.test.ts", // builds the OpenAPI document, whose registry another file in a shared process may have filled
];
const ALL = ["tests/**/*.test.ts", "lib/**/*.test.ts", "packages/verify/test/**/*.test.ts", "packages/sdk/test/**/*.test.ts"]; // not tests/cluster (npm run test:cluster)

const alias = { "@": path.resolve(import.meta.dirname) };
/** What both projects share. Not `extends: true`: a project that inherits `globalSetup` runs it again (vitest runs the root's and each project's), starting a second and third test server. */
const common = { testTimeout: 30_000, hookTimeout: 60_000, pool: "forks" as const, fileParallelism: false };

export default defineConfig({
  resolve: { alias },
  test: {
    // Once, for the root: the projects read what it provides (inject).
    globalSetup: ["tests/global-setup.ts"],
    ...common,
    projects: [
      {
        resolve: { alias },
        test: {
          ...common,
          name: "shared", include: ALL, exclude: [...configDefaults.exclude, "tests/cluster/**", ...ISOLATED],
          // The forks pool reads its own isolate; singleFork keeps the one process for every file.
          isolate: false, poolOptions: { forks: { isolate: false, singleFork: true } },
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: { ...common, name: "isolated", include: ISOLATED, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser). The global setup
 * starts the built app with a fresh DATA_DIR and a real SMTP capture on loopback.
 */
export default defineConfig({
  testDir: import.meta.dirname,
  testMatch: /.*\.spec\.ts$/,
  globalSetup: path.join(import.meta.dirname, "global-setup.ts"),
  // Per run when PRS_E2E_OUTPUT is set: .ci/run runs both databases' suites side by side.
  outputDir: process.env.PRS_E2E_OUTPUT ?? path.join(import.meta.dirname, "..", "test-results"),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: process.env.PRS_CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
      ],
    },
    trace: "off",
    screenshot: "off",
  },
});

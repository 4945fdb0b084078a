import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_FULL, CHROMIUM_SHELL } from "../scripts/chromium.mjs";

export { CHROMIUM_FULL };
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run",
];
/** Specs that need the full browser (scripts/chromium.mjs): the PDF viewer. */
const FULL_BROWSER_SPECS = /organisation\.spec\.ts$/;

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
    launchOptions: { executablePath: CHROMIUM_SHELL, args: CHROMIUM_ARGS },
    trace: "off",
    screenshot: "off",
  },
  projects: [
    // Most specs: the headless shell (scripts/chromium.mjs says why two builds).
    { name: "shell", testIgnore: FULL_BROWSER_SPECS },
    // The reviewer reads an uploaded PDF inline: only the full browser has the PDF viewer.
    { name: "full", testMatch: FULL_BROWSER_SPECS, use: { launchOptions: { executablePath: CHROMIUM_FULL, args: CHROMIUM_ARGS } } },
  ],
});

// Debian's Chromium for the Playwright suite (never a downloaded browser): installed with
// apt-get when missing. Used by `npm test` and, before the suites run side by side, by .ci/run
// (two apt-get runs at once would fight over dpkg's lock).
//
// Two builds of the same Chromium (docs/testing.md "Two Chromium builds"):
// - chromium-headless-shell runs most specs: the same Blink and V8 without the desktop
//   browser around them, about half the CPU per page;
// - chromium, the full browser, for what only it has: the PDF viewer (a reviewer reads an
//   uploaded PDF inline) and --unsafely-treat-insecure-origin-as-secure (a badge on a page
//   of a mapped host must be a secure context for WebCrypto).
import { aptInstall } from "./apt.mjs";

export const CHROMIUM_FULL = process.env.PRS_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_SHELL = process.env.PRS_CHROMIUM_SHELL ?? "/usr/bin/chromium-headless-shell";

export function ensureChromium() {
  aptInstall("chromium", CHROMIUM_FULL, "the e2e suite needs it (set PRS_SKIP_E2E=1 to skip)");
  aptInstall("chromium-headless-shell", CHROMIUM_SHELL, "the e2e suite needs it (set PRS_SKIP_E2E=1 to skip)");
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();

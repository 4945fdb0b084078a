// Debian's Chromium for the Playwright suite (never a downloaded browser): installed with
// apt-get when missing. Used by `npm test` and, before the suites run side by side, by .ci/run
// (two apt-get runs at once would fight over dpkg's lock).
import { aptInstall } from "./apt.mjs";

const CHROMIUM = process.env.PRS_CHROMIUM ?? "/usr/bin/chromium";

export function ensureChromium() {
  aptInstall("chromium", CHROMIUM, "the e2e suite needs it (set PRS_SKIP_E2E=1 to skip)");
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();

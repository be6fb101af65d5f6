import fs from "node:fs";
import type { LaunchOptions } from "@playwright/test";

// Two builds of Debian's Chromium, one engine (Blink and V8 of the same version).
//
// - The browser as people have it (/usr/bin/chromium, package chromium): the suites where a page
//   tries to get out or a person grants something — frame escapes, consent, the MCP App's view,
//   the MCP host's OAuth consent. Its browser layer adds what a person's Chrome does around a
//   page (prerendering, prefetching, the address bar), one more way out; and the two builds do
//   differ there: in the shell, the OAuth approval's redirect to a loopback callback and a frame's
//   navigation to an https name never left the page.
// - The headless shell (package chromium-headless-shell): every other suite. It is the build
//   Playwright itself runs headless, the same page engine without the browser layer, which cost a
//   sixth of the suite's CPU for nothing a page can see (whole e2e run: 1,308 → 1,102 CPU seconds,
//   11.4 → 9.7 min).

const common = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  // Names under .leak.test resolve to 127.0.0.1, so a navigation to https://<secret>.leak.test:<port>
  // reaches a listener that records the TLS server name (the consent and frame-escape suites).
  "--host-resolver-rules=MAP *.leak.test 127.0.0.1",
];

const peoplesPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const shellPath = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";

export const peoplesChromium: LaunchOptions = {
  executablePath: peoplesPath,
  // The address bar's popups are pages of their own, started for every context: each test paid
  // about 0.8 s of CPU for popups a headless browser never shows (Chromium merges this list with
  // Playwright's own).
  args: [...common, "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"],
};

export const headlessShell: LaunchOptions = {
  executablePath: shellPath,
  args: common,
};

/**
 * What to install before browsers can start, one line each. Checked when tests start
 * (e2e/support/global-setup.ts), not when the config loads: tools that only read the config
 * (knip) run where no browser is installed.
 */
export function missingBrowsers(): string[] {
  return [
    [peoplesPath, "CHROMIUM_PATH", "chromium"],
    [shellPath, "CHROMIUM_HEADLESS_SHELL_PATH", "chromium-headless-shell"],
  ]
    .filter(([path]) => !fs.existsSync(path!))
    .map(([path, variable, pkg]) => `${path} is missing: install Debian's ${pkg} (apt-get install ${pkg}), or set ${variable} to another build of it`);
}

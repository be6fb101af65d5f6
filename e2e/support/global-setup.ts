import { missingBrowsers } from "./chromium";

/** Stops the run with what to install, before any test waits on a browser that cannot start. */
export default function globalSetup(): void {
  const missing = missingBrowsers();
  if (missing.length) throw new Error(missing.join("\n"));
}

import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

// A host of MCP Apps in the browser, made of the extension's own host SDK (AppBridge and its
// PostMessageTransport, bundled for the page from mcp-app-host-entry.ts): the app's HTML goes
// into a sandboxed frame, and every tool call the app makes through the bridge is handed to
// `callTool` (an MCP client in Node), as a chat client hands it to the server. The page is served
// under HOST_ORIGIN by Playwright's routing; it is not the service's, and the service never sees
// it. Used by e2e/mcp-app.spec.ts and bench/pages.mjs.

export const HOST_ORIGIN = "http://mcp-host.test";

/** @type {Promise<string> | null} */
let bundle = null;

function hostScript() {
  bundle ??= build({
    entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp-app-host-entry.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "silent",
  }).then((r) => r.outputFiles[0].text);
  return bundle;
}

/**
 * Opens the host page on `page`; tool calls from the app go to `callTool`.
 * @param {import("@playwright/test").Page} page
 * @param {(params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>} callTool
 */
export async function openHost(page, callTool) {
  const script = await hostScript();
  await page.route(`${HOST_ORIGIN}/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === "/host.js") return route.fulfill({ contentType: "text/javascript", body: script });
    return route.fulfill({ contentType: "text/html", body: '<!doctype html><html><head><meta charset="utf-8"><title>MCP host</title></head><body><main id="chat"></main><script src="/host.js"></script></body></html>' });
  });
  await page.exposeFunction("hostCallTool", callTool);
  await page.goto(`${HOST_ORIGIN}/`);
  await page.waitForFunction(() => typeof window.showApp === "function");
}

/**
 * Renders the app `html` under a tool's result, as a host does once the tool has answered.
 * @param {import("@playwright/test").Page} page
 * @param {string} html
 * @param {unknown} toolResult
 */
export async function showApp(page, html, toolResult) {
  await page.evaluate(({ html, toolResult }) => window.showApp(html, toolResult), { html, toolResult });
}

/**
 * The links the app asked the host to open (ui/open-link), in order; the host opens none.
 * @param {import("@playwright/test").Page} page
 * @returns {Promise<string[]>}
 */
export function openedLinks(page) {
  return page.evaluate(() => window.openedLinks.slice());
}

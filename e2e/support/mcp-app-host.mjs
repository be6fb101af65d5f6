import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

// A host of MCP Apps in the browser, made of the extension's own host SDK (AppBridge and its
// PostMessageTransport, bundled for the page from mcp-app-host-entry.ts): the app's HTML goes
// into a sandboxed frame, and every tool call the app makes through the bridge is handed to
// `callTool` (an MCP client in Node), as a chat client hands it to the server. The page is served
// under HOST_ORIGIN by Playwright's routing; it is not the service's, and the service never sees
// it. Used by e2e/mcp-app.spec.ts and bench/pages.mjs.
//
// The host is built on either line of the extension: 1.x (on the v1 MCP SDK) or 2.x (on v2), the
// same entry bundled against each, since hosts in use today run both.

export const HOST_ORIGIN = "http://mcp-host.test";

/** The extension's lines a host may be built on. */
export const APPS_LINES = /** @type {const} */ ([1, 2]);

/** @type {Map<number, Promise<string>>} */
const bundles = new Map();

/** @param {1 | 2} line */
function hostScript(line) {
  const cached = bundles.get(line);
  if (cached) return cached;
  const bundle = build({
    entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp-app-host-entry.ts")],
    alias: line === 2 ? { "@modelcontextprotocol/ext-apps": "ext-apps-v2" } : {},
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "silent",
  }).then((r) => r.outputFiles[0].text);
  bundles.set(line, bundle);
  return bundle;
}

/**
 * Opens the host page on `page`; tool calls from the app go to `callTool`.
 * @param {import("@playwright/test").Page} page
 * @param {(params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>} callTool
 * @param {1 | 2} [line] the extension's line the host is built on
 */
export async function openHost(page, callTool, line = 2) {
  const script = await hostScript(line);
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
 * @param {{ downloads?: boolean; displayModes?: string[]; storage?: boolean }} [offer] what the host offers the view
 */
export async function showApp(page, html, toolResult, offer = {}) {
  await page.evaluate(({ html, toolResult, offer }) => window.showApp(html, toolResult, offer), { html, toolResult, offer });
}

/**
 * Takes the app away, as a host does when the conversation is reloaded.
 * @param {import("@playwright/test").Page} page
 */
export async function hideApp(page) {
  await page.evaluate(() => window.hideApp());
}

/**
 * What the app asked the host to save (ui/download-file) and the display modes it asked for.
 * @param {import("@playwright/test").Page} page
 * @returns {Promise<{ downloads: unknown[]; displayModeRequests: string[] }>}
 */
export function hostRecord(page) {
  return page.evaluate(() => ({ downloads: window.downloads.slice(), displayModeRequests: window.displayModeRequests.slice() }));
}

/**
 * The links the app asked the host to open (ui/open-link), in order; the host opens none.
 * @param {import("@playwright/test").Page} page
 * @returns {Promise<string[]>}
 */
export function openedLinks(page) {
  return page.evaluate(() => window.openedLinks.slice());
}

import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { build } from "esbuild";

// A host of MCP Apps in the browser, made of the extension's own host SDK (AppBridge and its
// PostMessageTransport, bundled for the page): the app's HTML goes into a sandboxed frame, and
// every tool call the app makes through the bridge is handed to `callTool` (the test's MCP client
// in Node), as a chat client hands it to the server. The page is served by the test under
// HOST_ORIGIN; it is not the service's, and the service never sees it.

export const HOST_ORIGIN = "http://mcp-host.test";

let bundle: Promise<string> | null = null;

function hostScript(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp-app-host-entry.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "silent",
  }).then((r) => r.outputFiles[0]!.text);
  return bundle;
}

/** Opens the host page on `page`; tool calls from the app go to `callTool`. */
export async function openHost(page: Page, callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>): Promise<void> {
  const script = await hostScript();
  await page.route(`${HOST_ORIGIN}/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === "/host.js") return route.fulfill({ contentType: "text/javascript", body: script });
    return route.fulfill({ contentType: "text/html", body: '<!doctype html><html><head><meta charset="utf-8"><title>MCP host</title></head><body><main id="chat"></main><script src="/host.js"></script></body></html>' });
  });
  await page.exposeFunction("hostCallTool", callTool);
  await page.goto(`${HOST_ORIGIN}/`);
  await page.waitForFunction(() => typeof (window as unknown as { showApp?: unknown }).showApp === "function");
}

/** Renders the app `html` under a tool's result, as a host does once the tool has answered. */
export async function showApp(page: Page, html: string, toolResult: unknown): Promise<void> {
  await page.evaluate(
    ({ html, toolResult }) => (window as unknown as { showApp: (h: string, r: unknown) => Promise<void> }).showApp(html, toolResult),
    { html, toolResult },
  );
}

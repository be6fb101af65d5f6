import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Canaries } from "./support/canary";
import { describeCounts, LoopbackListeners, reached, type ListenerTarget } from "./support/listeners";
import { peoplesChromium } from "./support/chromium";
import { APPS_LINES, HOST_ORIGIN, hideApp, hostRecord, openHost, showApp } from "./support/mcp-app-host.mjs";

// A draft as an MCP App on the production server: the agent's tools answer with the view's
// address, a host made of the extension's own SDK (AppBridge) renders the view in a sandboxed
// frame, and the dashboard draws its demo data there, its reads travelling only over the bridge.
// An update the agent makes reaches the inline view. What the dashboard tries to send anywhere
// else is counted at loopback listeners. Hosts on both lines of the extension: 1.x with the v1 MCP
// client (protocol 2025-11-25), 2.x with the v2 client on the 2026-07-28 revision.

// The dashboard tries every way out it has, in the browser people have (e2e/support/chromium.ts).
test.use({ launchOptions: peoplesChromium });

const MCP = "/dashboards/playground/mcp";

/** A dashboard that draws the demo /me, says its revision, and tries every way out it has. */
const dashboard = (revision: number, leak: ListenerTarget) =>
  [
    '<!doctype html><html><head><meta charset="utf-8"><title>Inline</title></head><body>',
    `<p>Revision <span id="rev">${revision}</span> for <span id="who">…</span></p>`,
    "<script>",
    'const API = window.DASHBOARD_API_BASE || "/api";',
    'fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("who").textContent = me.email; });',
    // Every attempt is expected to fail quietly; none may reach the listener.
    `const out = ${JSON.stringify(leak.httpOrigin)};`,
    'fetch(out + "/fetch?r=' + revision + '", { mode: "no-cors" }).catch(() => {});',
    'new Image().src = out + "/img?r=' + revision + '";',
    `try { new WebSocket(${JSON.stringify(leak.wsOrigin)} + "/ws"); } catch {}`,
    'try { navigator.sendBeacon(out + "/beacon", "x"); } catch {}',
    'const box = document.createElement("div"); document.body.appendChild(box);',
    'try { box.innerHTML = "<iframe srcdoc=\\"<script>fetch(\'" + out + "/child\')<\\/script>\\"></iframe>"; } catch {}',
    'document.body.dataset.rtc = typeof RTCPeerConnection;',
    "</script></body></html>",
  ].join("\n");

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** What a host's MCP client does here, on either SDK line. */
interface HostClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<{ tools: { name: string; _meta?: unknown }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  close(): Promise<void>;
}

/** The MCP client a host on the extension's `line` has: v1 speaking 2025-11-25, or v2 pinned to 2026-07-28. */
async function hostClient(line: 1 | 2, url: URL): Promise<HostClient> {
  if (line === 1) {
    const client = new Client({ name: "e2e-mcp-apps", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client as unknown as HostClient;
  }
  const client = new ModernClient({ name: "e2e-mcp-apps", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new ModernTransport(url));
  expect(client.getProtocolEra()).toBe("modern");
  return client as unknown as HostClient;
}

for (const line of APPS_LINES)
test(`a draft shown as an MCP App in a host on ext-apps ${line}.x draws its demo data through the bridge, follows an update, and sends nothing anywhere else`, async ({ page, baseURL, browser, request }) => {
  const listeners = new LoopbackListeners();
  const canaries = new Canaries(browser, listeners);
  const leak = await listeners.target("mcp app");
  const client = await hostClient(line, new URL(MCP, baseURL!));
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError ?? false, textOf(result)).toBe(false);
    return result;
  };
  try {
    // The tools name the view; the data tool is the app's alone.
    const { tools } = await client.listTools();
    const meta = (name: string) => tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string; visibility?: string[] } } | undefined;
    const uri = meta("create_draft")?.ui?.resourceUri;
    expect(uri).toMatch(/^ui:\/\//);
    for (const name of ["update_draft", "read_draft", "show_draft"]) expect(meta(name)?.ui?.resourceUri, name).toBe(uri);
    // The view relays its reads there; an agent may read demo data with it too.
    expect(meta("read_demo_data")?.ui?.visibility).toEqual(["model", "app"]);
    const { contents } = await client.readResource({ uri: uri! });
    expect(contents[0]).toMatchObject({ uri, mimeType: "text/html;profile=mcp-app", _meta: { ui: { csp: {} } } });
    const viewHtml = (contents[0] as { text: string }).text;

    const created = await call("create_draft", { html: dashboard(1, leak) });
    const { postUrl } = created.structuredContent as { postUrl: string };
    const me = (await (await request.get("/dashboards/playground/api/me")).json()) as { email: string };

    // Whatever a frame of the host page asks of the network is the app's: the host page's own
    // requests are the page's main frame.
    const answered: string[] = [];
    page.on("response", (r) => {
      if (r.frame() !== page.mainFrame()) answered.push(r.url());
    });
    const relayed: string[] = [];
    await openHost(
      page,
      async (params) => {
        relayed.push(params.name);
        return client.callTool(params);
      },
      line,
    );
    await showApp(page, viewHtml, created);

    const inline = page.frameLocator("#app").frameLocator("iframe");
    await expect(inline.locator("#rev")).toHaveText("1");
    await expect(inline.locator("#who")).toHaveText(me.email);
    // The frame's bootstrap took WebRTC away, as it does in a watcher's browser.
    await expect(inline.locator("body")).toHaveAttribute("data-rtc", "undefined");

    const updatedAt = Date.now();
    await call("update_draft", { postUrl, html: dashboard(2, leak) });
    await expect(inline.locator("#rev")).toHaveText("2");
    await expect(inline.locator("#who")).toHaveText(me.email);
    test.info().annotations.push({ type: "update reached the inline view", description: `${Date.now() - updatedAt} ms after update_draft answered` });

    // Sent after every attempt of both revisions: once these have arrived, what has not never will.
    await canaries.send([leak]);
    expect(reached(listeners.counts("mcp app")), describeCounts(listeners.counts("mcp app"))).toBe(false);
    expect(answered, "requests answered to a frame of the host page").toEqual([]);
    // The reads went through the bridge to the app's tools.
    expect(relayed).toContain("read_draft");
    expect(relayed).toContain("read_demo_data");
    expect(new URL(page.url()).origin).toBe(HOST_ORIGIN);
  } finally {
    await client.close();
    await canaries.close();
    await listeners.close();
  }
});

test("show_draft answers a host without MCP Apps in words and fields, without the document", async ({ baseURL }) => {
  const client = new Client({ name: "e2e-mcp-text", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP, baseURL)));
  try {
    const created = (await client.callTool({ name: "create_draft", arguments: { html: "<!doctype html><title>t</title><p>hello</p>" } })) as CallToolResult;
    const { id } = created.structuredContent as { id: string };
    const shown = (await client.callTool({ name: "show_draft", arguments: { readId: id } })) as CallToolResult;
    expect(shown.isError ?? false, textOf(shown)).toBe(false);
    expect(shown.structuredContent).toMatchObject({ id, revision: 1, dataMode: "demo" });
    expect(shown.structuredContent).not.toHaveProperty("html");
    expect(textOf(shown)).toContain(id);
  } finally {
    await client.close();
  }
});

test("the inline view holds a dashboard's reads to the browser broker's pace: a burst of 300 reaches the server as 30", async ({ page, baseURL }) => {
  const client = new Client({ name: "e2e-mcp-burst", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP, baseURL)));
  try {
    const burst = [
      '<!doctype html><html><head><meta charset="utf-8"><title>Burst</title></head><body><p id="done">…</p>',
      "<script>",
      'const API = window.DASHBOARD_API_BASE || "/api";',
      "const statuses = {};",
      'Promise.all(Array.from({ length: 300 }, () => fetch(API + "/me").then((r) => { statuses[r.status] = (statuses[r.status] || 0) + 1; }, () => {}))).then(() => {',
      '  document.getElementById("done").textContent = JSON.stringify(statuses);',
      "});",
      "</script></body></html>",
    ].join("\n");
    const created = (await client.callTool({ name: "create_draft", arguments: { html: burst } })) as CallToolResult;
    expect(created.isError ?? false, textOf(created)).toBe(false);
    const { contents } = await client.readResource({ uri: "ui://dashboards-playground/draft.html" });
    const relayed: string[] = [];
    await openHost(page, async (params) => {
      relayed.push(params.name);
      return client.callTool(params);
    });
    await showApp(page, (contents[0] as { text: string }).text, created);
    const done = page.frameLocator("#app").frameLocator("iframe").locator("#done");
    await expect(done).toHaveText(/^\{/, { timeout: 30_000 });
    const statuses = JSON.parse((await done.textContent())!) as Record<string, number>;
    const reads = relayed.filter((n) => n === "read_demo_data").length;
    // The bucket's 30, and what it refilled while the burst arrived; the rest refused in the view.
    expect(reads).toBeGreaterThanOrEqual(30);
    expect(reads).toBeLessThanOrEqual(40);
    expect(statuses["200"]).toBe(reads);
    expect(statuses["429"]).toBe(300 - reads);
  } finally {
    await client.close();
  }
});

test("the inline view offers the draft's HTML and picture where the host saves files, the display modes it offers, and comes back as it was left", async ({ page, baseURL }) => {
  const client = await hostClient(2, new URL(MCP, baseURL!));
  try {
    const html = '<!doctype html><html><head><meta charset="utf-8"><title>Saved</title></head><body><h1 id="h">Quarter</h1></body></html>';
    const created = (await client.callTool({ name: "create_draft", arguments: { html } })) as CallToolResult;
    const { contents } = await client.readResource({ uri: "ui://dashboards-playground/draft.html" });
    const viewHtml = (contents[0] as { text: string }).text;
    await openHost(page, (params) => client.callTool(params), 2);
    const view = page.frameLocator("#app");

    // A host that saves no files and has one display mode gets the dashboard and no buttons.
    await showApp(page, viewHtml, created);
    await expect(view.frameLocator("iframe").locator("#h")).toHaveText("Quarter");
    await expect(view.getByRole("toolbar")).toBeHidden();
    await hideApp(page);

    const offer = { downloads: true, displayModes: ["inline", "fullscreen"] as ("inline" | "fullscreen")[], storage: true };
    await showApp(page, viewHtml, created, offer);
    await expect(view.frameLocator("iframe").locator("#h")).toHaveText("Quarter");
    const toolbar = view.getByRole("toolbar", { name: "Draft" });
    await toolbar.getByRole("button", { name: "Download HTML" }).click();
    await expect.poll(async () => (await hostRecord(page)).downloads.length).toBe(1);
    expect((await hostRecord(page)).downloads[0]).toEqual({ type: "resource", resource: { uri: "file:///dashboard-draft-r1.html", mimeType: "text/html", text: html } });

    await toolbar.getByRole("button", { name: "Download picture" }).click();
    await expect.poll(async () => (await hostRecord(page)).downloads.length, { timeout: 30_000 }).toBe(2);
    const picture = (await hostRecord(page)).downloads[1] as { resource: { uri: string; mimeType: string; blob: string } };
    expect(picture.resource).toMatchObject({ uri: "file:///dashboard-draft-r1.png", mimeType: "image/png" });
    expect(Buffer.from(picture.resource.blob, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");

    await toolbar.getByRole("button", { name: "Full screen" }).click();
    await expect(toolbar.getByRole("button", { name: "Full screen" })).toHaveAttribute("aria-pressed", "true");
    expect((await hostRecord(page)).displayModeRequests).toEqual(["fullscreen"]);

    // The conversation reloaded: the view is new, and asks for the mode it was left in.
    await hideApp(page);
    await showApp(page, viewHtml, created, offer);
    await expect.poll(async () => (await hostRecord(page)).displayModeRequests).toEqual(["fullscreen", "fullscreen"]);
    await expect(view.getByRole("toolbar", { name: "Draft" }).getByRole("button", { name: "Full screen" })).toHaveAttribute("aria-pressed", "true");
  } finally {
    await client.close();
  }
});

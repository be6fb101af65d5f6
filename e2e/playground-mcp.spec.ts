import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

// The playground's MCP endpoint on the production server, as an agent's MCP client meets it:
// the official client SDK from Node, no browser. The tools it is shown, then the loop through
// them, with what an HTTP reader of the same draft sees.

const MCP = "/dashboards/playground/mcp";
const BOOK = [
  '<!doctype html><html><head><meta charset="utf-8"><title>Book, over MCP</title></head><body><h1>My book</h1><p id="out">Loading…</p>',
  "<script>",
  'const API = window.DASHBOARD_API_BASE || "/api";',
  "async function load() {",
  '  const out = document.getElementById("out");',
  '  const res = await fetch(API + "/cx/book?owner=1");',
  "  if (!res.ok) {",
  "    const { error, hint } = await res.json();",
  "    out.textContent = hint || error;",
  "    return;",
  "  }",
  "  const body = await res.json();",
  "  if (!body.ok) {",
  "    out.textContent = body.waitingOn;",
  "    return;",
  "  }",
  '  out.textContent = body.data.rows.length + " schools";',
  "}",
  "load();",
  "</script></body></html>",
].join("\n");

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

test("an MCP client lists the tools and runs the draft loop on the production server", async ({ baseURL, request }) => {
  const client = new Client({ name: "e2e-mcp", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP, baseURL)));
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(name, args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    return result.structuredContent as Record<string, unknown>;
  };
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "check_html",
      "create_draft",
      "describe_endpoint",
      "draw_dashboard",
      "list_scenarios",
      "read_dashboard",
      "read_demo_data",
      "read_draft",
      "read_live_data",
      "read_render_reports",
      "render_draft",
      "show_dashboard",
      "show_draft",
      "update_draft",
    ]);
    const create = tools.find((t) => t.name === "create_draft")!;
    expect(create.inputSchema).toMatchObject({ type: "object", required: ["html"], additionalProperties: false });
    expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual(["dash", "dataMode", "examples", "html", "scenario"]);
    expect(tools.find((t) => t.name === "update_draft")!.inputSchema).toMatchObject({ required: ["postUrl"] });

    expect(await ok("check_html", { html: BOOK })).toEqual({ warnings: [], reads: { paths: ["/cx/book"], complete: true } });

    const created = (await ok("create_draft", { html: BOOK, dash: "e2e-mcp" })) as { id: string; postUrl: string; watchUrl: string; revision: number; warnings: unknown[] };
    expect(created).toMatchObject({ revision: 1, warnings: [] });
    expect(new URL(created.watchUrl).pathname).toBe(`/dashboards/playground/watch/${created.id}`);

    expect(await ok("update_draft", { postUrl: created.postUrl, scenario: "outage" })).toMatchObject({ id: created.id, revision: 2 });
    expect(await ok("read_draft", { watchUrl: created.watchUrl })).toMatchObject({ revision: 2, html: BOOK, scenario: "outage", dash: "e2e-mcp" });

    const blank = await call("update_draft", { postUrl: created.postUrl, html: "<!-- nothing yet -->" });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toMatch(/^invalid_draft: html: the document is empty/);
    // Nothing was published: HTTP readers see revision 2 still.
    expect(await (await request.get(`/dashboards/playground/draft/${created.id}`)).json()).toMatchObject({ revision: 2, html: BOOK, scenario: "outage" });

    const book = (await ok("describe_endpoint", { path: "/cx/book" })) as { path: string; errors: string[]; query: { name: string; required: boolean }[] };
    expect(book.path).toBe("/cx/book");
    expect(book.query).toContainEqual(expect.objectContaining({ name: "owner", required: true }));
    expect(book.errors).toContain("400 owner_required");

    const scenarios = await ok("list_scenarios");
    expect(scenarios).toEqual(await (await request.get("/dashboards/playground/scenarios")).json());
  } finally {
    await client.close();
  }
});

test("the MCP endpoint answers anything but an MCP POST with the error envelope", async ({ request }) => {
  for (const method of ["GET", "DELETE"] as const) {
    const res = await request.fetch(MCP, { method, headers: { accept: "text/event-stream" } });
    expect([res.status(), res.headers()["allow"], (await res.json()).error]).toEqual([405, "POST", "method_not_allowed"]);
  }
  const notRpc = await request.post(MCP, { data: { hello: "world" } });
  expect([notRpc.status(), (await notRpc.json()).error]).toEqual([400, "invalid_request"]);
  const trailing = await request.post(`${MCP}/`, { headers: { accept: "application/json, text/event-stream" }, data: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
  expect(trailing.status()).toBe(200);
  expect((await trailing.json()).result.tools).toHaveLength(14);
});

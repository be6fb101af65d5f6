import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { REPORTS_PER_SOURCE, renderReportAccepted, renderReports } from "@/lib/contract/reports";
import { backends } from "../support/backends";
import { DRAFT, create, postJson, startApp, type App } from "./support";

// Page parameters on a render, over real HTTP and MCP: checked as the watch page checks ?p.
// parameters and refused in the envelope (isError with the envelope over MCP) rather than
// dropped; and render reports kept per revision and parameter set, each saying which it was.
// Drawing with them in a real browser is tests/integration/renderer/renderer.test.ts.

const sqlite = backends.find((b) => b.name === "sqlite")!;

const report = (params?: Record<string, string>, errors = 0) => ({
  revision: 1,
  page: "watch",
  settled: true,
  elapsedMs: 90,
  errors: Array.from({ length: errors }, (_, i) => ({ kind: "error", message: `boom ${i}`, line: 3, column: 1, count: 1 })),
  console: [],
  refusals: [],
  requests: [{ method: "GET", path: "/cx/districts", status: 200, ms: 5 }],
  dropped: 0,
  ...(params ? { params } : {}),
});

describe("page parameters on renders and render reports", () => {
  let open: Awaited<ReturnType<typeof sqlite.open>>;
  let app: App;
  let client: Client;

  beforeAll(async () => {
    open = await sqlite.open();
    app = await startApp(open, { settings: { createsPerMinute: 10_000, reportsPerMinute: 10_000 } });
    client = new Client({ name: "render-params-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/dashboards/playground/mcp`)));
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await open.close();
  });

  const render = (id: string, body: unknown) => postJson(`${app.url}${DRAFT}/${id}/render`, body);
  const envelope = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string; hint?: string }) });

  it("refuses, in the envelope, every parameter the watch page would not pass", async () => {
    const draft = await create(app, { html: "<!doctype html><p>x</p>" });
    for (const [params, hint] of [
      [{ District: "x" }, /^params: a watch page would not pass "District" \(not a name of lower-case letters/],
      [{ q: "x".repeat(201) }, /"q" \(longer than 200 characters\)/],
      [{ q: "a\u0007b" }, /"q" \(holds control or invisible characters\)/],
      [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])), /"k20" \(more than 20 parameters\)/],
      [{ "p.district": "x" }, /without the "p\." prefix/],
      [{ days: 90 }, /^params\.days: must be a string/],
      [["district"], /^params: must be an object of parameter name → value/],
    ] as const) {
      const e = await envelope(await render(draft.id, { params }));
      expect(e, JSON.stringify(params)).toMatchObject({ status: 400, error: "invalid_render" });
      expect(e.hint, JSON.stringify(params)).toMatch(hint);
    }
    // Parameters the page would pass get as far as the browser (this app has none).
    expect(await envelope(await render(draft.id, { params: { district: "Northwind", days: "90" } }))).toMatchObject({ status: 503, error: "renderer_not_configured" });
  });

  it("refuses them over MCP as isError, with the envelope as structured content", async () => {
    const draft = await create(app, { html: "<!doctype html><p>x</p>" });
    const result = (await client.callTool({ name: "render_draft", arguments: { readId: draft.id, viewport: "phone", params: { District: "x" } } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: "invalid_render", hint: expect.stringContaining('"District"') as string });
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "render_draft")?.inputSchema as { properties: Record<string, { description?: string }> };
    expect(schema.properties.params?.description).toContain("DASHBOARD_PARAMS");
  });

  it("keeps reports per parameter set, and says which set each was", async () => {
    const draft = await create(app, { html: "<!doctype html><p>x</p>" });
    const send = (body: unknown) => postJson(`${app.url}${DRAFT}/${draft.id}/reports`, body);
    // More than one source keeps of one set, for two sets and for none.
    for (const params of [{ district: "A" }, { district: "B" }, undefined]) {
      for (let i = 0; i < REPORTS_PER_SOURCE + 2; i++) {
        const res = await send(report(params));
        expect(res.status, await res.clone().text()).toBe(201);
        renderReportAccepted.parse(await res.json());
      }
    }
    const listed = renderReports.parse(await (await fetch(`${app.url}${DRAFT}/${draft.id}/reports`)).json());
    const bySet = new Map<string, number>();
    for (const r of listed.reports) bySet.set(JSON.stringify(r.params), (bySet.get(JSON.stringify(r.params)) ?? 0) + 1);
    expect(Object.fromEntries(bySet)).toEqual({ '{"district":"A"}': REPORTS_PER_SOURCE, '{"district":"B"}': REPORTS_PER_SOURCE, "{}": REPORTS_PER_SOURCE });

    // A report's parameters are held to the page's bounds too.
    const bad = await send(report({ District: "x" }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("invalid_report");

    // Over MCP, read_render_reports shows the same sets.
    const mcp = (await client.callTool({ name: "read_render_reports", arguments: { readId: draft.id } })) as CallToolResult;
    const reports = (mcp.structuredContent as { reports: { params: Record<string, string> }[] }).reports;
    expect(new Set(reports.map((r) => JSON.stringify(r.params)))).toEqual(new Set(['{"district":"A"}', '{"district":"B"}', "{}"]));
  });
});

import { expect, test } from "@playwright/test";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";

// Two agents meet the service as new users do, each knowing one address: one the MCP endpoint
// alone (the official v2 client, on the 2026-07-28 revision), one llms.txt alone (plain HTTP).
// Each reads what it needs for one task, writes its dashboard, and must reach a first write with
// no finding left having read at most READ_BUDGET bytes; then it has the service draw the draft at
// desktop and phone size with a page parameter, and the render reports no error.
//
// What counts as read: for MCP, what a host hands its model (the server's instructions; each tool
// the model may call, by name, title, description and input schema; every resource, prompt and
// result text, structured content as JSON beside it); for HTTP, every body fetched. The bytes on
// the wire are counted too (output schemas, which hosts keep for validation, among them) and
// printed with the rest, for docs/benchmarks.md.

const READ_BUDGET = 15 * 1024;
const TASK_PARAM = { name: "days", value: "90" };

/** The task's dashboard, written from what each agent read: district health over a window the address may set. */
const DASHBOARD = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>District health</title>
<style>body{font:15px system-ui,sans-serif;margin:16px}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #ddd}.demo{color:#7a4b00}</style></head>
<body>
<main>
<h1>District health</h1>
<p id="label"></p>
<p id="state" role="status">Loading…</p>
<table hidden><thead><tr><th scope="col">District</th><th scope="col">Health</th><th scope="col">Days since contact</th></tr></thead><tbody id="rows"></tbody></table>
</main>
<script>
const API = window.DASHBOARD_API_BASE || "/api";
const params = window.DASHBOARD_PARAMS || {};
const days = /^\\d{1,3}$/.test(params.days || "") && Number(params.days) >= 1 && Number(params.days) <= 365 ? Number(params.days) : 30;
document.getElementById("label").textContent = (window.DASHBOARD_DATA_MODE === "demo" ? "Demo data. " : "") + "The last " + days + " days.";
const state = document.getElementById("state");
function cell(row, text) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); }
fetch(API + "/cx/districts?days=" + days).then(async (res) => {
  const body = await res.json().catch(() => ({}));
  if (!res.ok) { state.textContent = body.hint || body.error || "HTTP " + res.status; return; }
  if (!body.ok) { state.textContent = body.waitingOn; return; }
  const rows = body.data.rows;
  if (rows.length === 0) { state.textContent = "No districts in this window."; return; }
  const tbody = document.getElementById("rows");
  for (const d of rows) {
    const tr = document.createElement("tr");
    cell(tr, d.name);
    cell(tr, d.health ? d.health.band : "no health data");
    cell(tr, d.cadence && d.cadence.daysSinceContact !== null ? String(d.cadence.daysSinceContact) : "no contact in this window");
    tbody.appendChild(tr);
  }
  state.textContent = rows.length + " districts.";
  document.querySelector("table").hidden = false;
}, () => { state.textContent = "The API could not be reached."; });
</script>
</body>
</html>
`;

interface Tally {
  read: number;
  wire: number;
  steps: string[];
}

const bytes = (s: string) => Buffer.byteLength(s);

function note(t: Tally, what: string, read: number) {
  t.read += read;
  t.steps.push(`${what} ${read}`);
}

test.describe("an agent's reading budget", () => {
  test("over MCP alone: rules, tools and one endpoint, then a clean first write, and renders with a page parameter", async ({ baseURL }) => {
    const tally: Tally = { read: 0, wire: 0, steps: [] };
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      tally.wire += bytes(await res.clone().text());
      return res;
    };
    const client = new Client({ name: "budget-agent", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/dashboards/playground/mcp`), { fetch: counting }));
    const instructions = client.getInstructions() ?? "";
    note(tally, "instructions", bytes(instructions));

    const { tools } = await client.listTools();
    const forModel = tools.filter((t) => {
      const visibility = (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility;
      return !visibility || visibility.includes("model");
    });
    note(tally, "tools", bytes(JSON.stringify(forModel.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema })))));

    // The instructions name the rules' resource; the agent reads it, as they say, first.
    const rulesUri = /dashboards:\/\/\S+\.md/.exec(instructions)?.[0];
    expect(rulesUri, "the instructions name the rules").toBeTruthy();
    const rules = ((await client.readResource({ uri: rulesUri! })).contents[0] as { text: string }).text;
    note(tally, "rules", bytes(rules));
    for (const rule of ["DASHBOARD_API_BASE", "DASHBOARD_DATA_MODE", "DASHBOARD_PARAMS", "res.ok", "waitingOn"]) expect(rules, rule).toContain(rule);

    const result = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      note(tally, name, bytes(text) + (r.structuredContent === undefined ? 0 : bytes(JSON.stringify(r.structuredContent))));
      expect(r.isError ?? false, text).toBe(false);
      return r.structuredContent as Record<string, unknown>;
    };
    const districts = await result("describe_endpoint", { path: "/cx/districts" });
    expect((districts.query as { name: string }[]).map((q) => q.name)).toContain("days");
    const checked = await result("check_html", { html: DASHBOARD });
    expect(checked.warnings).toEqual([]);
    const created = await result("create_draft", { html: DASHBOARD });
    expect(created.warnings).toEqual([]);
    console.log(`MCP agent: read ${tally.read} B before and at its first write (${tally.steps.join(", ")}); ${tally.wire} B on the wire`);
    expect(tally.read).toBeLessThanOrEqual(READ_BUDGET);

    for (const viewport of ["desktop", "phone"]) {
      const r = (await client.callTool({ name: "render_draft", arguments: { readId: created.id, viewport, params: { [TASK_PARAM.name]: TASK_PARAM.value } } })) as CallToolResult;
      expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
      const answer = r.structuredContent as { params?: Record<string, string>; report: { errors: unknown[]; refusals: unknown[]; requests: { path: string; status: number }[] } };
      expect(answer.params, viewport).toEqual({ [TASK_PARAM.name]: TASK_PARAM.value });
      expect(answer.report.errors, viewport).toEqual([]);
      expect(answer.report.refusals, viewport).toEqual([]);
      expect(answer.report.requests.map((q) => [q.path, q.status]), viewport).toEqual([[`/cx/districts?days=${TASK_PARAM.value}`, 200]]);
      expect(r.content.some((c) => c.type === "image"), viewport).toBe(true);
    }
    await client.close();
  });

  test("over llms.txt alone: the index and one endpoint's page, then a clean first write, and renders with a page parameter", async ({ request }) => {
    const tally: Tally = { read: 0, wire: 0, steps: [] };
    const get = async (what: string, path: string) => {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const text = await res.text();
      note(tally, what, bytes(text));
      return text;
    };
    const index = await get("llms.txt", "/dashboards/playground/llms.txt");
    for (const rule of ["DASHBOARD_API_BASE", "DASHBOARD_DATA_MODE", "DASHBOARD_PARAMS", "res.ok", "waitingOn"]) expect(index, rule).toContain(rule);
    // The endpoint's line links its page; the loop names the check, creation and the render.
    const page = /\[`\/cx\/districts[^`]*`\]\(([^)]+\.md)\)/.exec(index)?.[1];
    expect(page, "llms.txt links the endpoint's page").toBeTruthy();
    const endpoint = await get("endpoint page", new URL(page!, "http://x").pathname);
    expect(endpoint).toContain("`days`");
    const checkUrl = /`POST (\S+\/check)`/.exec(index)?.[1];
    const createUrl = /`POST (\S+\/draft)` with/.exec(index)?.[1];
    const renderUrl = /`POST (\S+\/draft\/<id>\/render)`/.exec(index)?.[1];
    expect([checkUrl, createUrl, renderUrl].every(Boolean), "the loop names check, create and render").toBe(true);
    const post = async (what: string, url: string, body: unknown) => {
      const res = await request.post(new URL(url).pathname, { data: body });
      const text = await res.text();
      note(tally, what, bytes(text));
      expect(res.ok(), text).toBe(true);
      return JSON.parse(text) as Record<string, unknown>;
    };
    expect((await post("check", checkUrl!, { html: DASHBOARD })).warnings).toEqual([]);
    const created = await post("create", createUrl!, { html: DASHBOARD });
    expect(created.warnings).toEqual([]);
    console.log(`HTTP agent: read ${tally.read} B before and at its first write (${tally.steps.join(", ")})`);
    expect(tally.read).toBeLessThanOrEqual(READ_BUDGET);

    for (const viewport of ["desktop", "phone"]) {
      const res = await request.post(new URL(renderUrl!.replace("<id>", String(created.id))).pathname, { data: { viewport, params: { [TASK_PARAM.name]: TASK_PARAM.value } }, timeout: 60_000 });
      const answer = (await res.json()) as { params?: Record<string, string>; report: { errors: unknown[]; refusals: unknown[]; requests: { path: string; status: number }[] } };
      expect(res.status(), JSON.stringify(answer)).toBe(200);
      expect(answer.params, viewport).toEqual({ [TASK_PARAM.name]: TASK_PARAM.value });
      expect(answer.report.errors, viewport).toEqual([]);
      expect(answer.report.refusals, viewport).toEqual([]);
      expect(answer.report.requests.map((q) => [q.path, q.status]), viewport).toEqual([[`/cx/districts?days=${TASK_PARAM.value}`, 200]]);
    }
  });
});

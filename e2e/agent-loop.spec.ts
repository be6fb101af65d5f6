import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

// The agent's whole loop on the production server, the way an agent told only "the protocol is
// at /dashboards/playground/llms.txt" runs it: everything it sends comes from llms.txt (the
// URLs, the recipe's code, the scenario names). It checks until there is nothing to fix,
// publishes once, has a browser render the draft and reads what that render reported, switches
// the demo state without resending the HTML, and ends with exactly the revisions it meant to
// publish. Then an MCP client runs the same loop through the tools.

const LLMS = "/dashboards/playground/llms.txt";

interface Protocol {
  checkUrl: string;
  createUrl: string;
  /** With `<read_id>` where the draft's read id goes. */
  reportsUrl: string;
  revisionsUrl: string;
  /** What to append to watchUrl for a render that finishes, as a screenshot takes it. */
  staticSuffix: string;
  recipe: string;
  scenarios: string[];
}

/** llms.txt, and the whole protocol it points to: what an agent told only llms.txt reads. */
async function protocolText(request: APIRequestContext): Promise<string> {
  const index = await (await request.get(LLMS)).text();
  const full = /(https?:\/\/\S+\/llms-full\.txt)/.exec(index)?.[1];
  expect(full, "llms.txt points at the whole protocol").toBeTruthy();
  return `${index}\n${await (await request.get(new URL(full!).pathname)).text()}`;
}

/** What the agent takes from llms.txt (and what it links), and nothing else. */
async function readProtocol(request: APIRequestContext): Promise<Protocol> {
  const text = await protocolText(request);
  const checkUrl = /POST (\S+\/dashboards\/playground\/check)`/.exec(text)?.[1];
  const createUrl = /POST (\S+\/dashboards\/playground\/draft)` with `Content-Type: application\/json`/.exec(text)?.[1];
  const recipes = text.split("### The signed-in CSM's own book of business")[1] ?? "";
  const recipe = /```js\n([\s\S]*?)```/.exec(recipes)?.[1];
  const states = text.split("## Scenarios and variants")[1] ?? "";
  const scenarios = [...states.matchAll(/^- `([a-z-]+)`/gm)].map((m) => m[1]!);
  const reportsUrl = /Read them with `GET (\S+\/draft\/<read_id>\/reports)`/.exec(text)?.[1];
  const revisionsUrl = /`GET (\S+\/draft\/<read_id>\/revisions)` the kept revisions/.exec(text)?.[1];
  const staticSuffix = /\(`watchUrl` plus `(\?[a-z]+=\d)`\)/.exec(text)?.[1];
  expect(checkUrl, "llms.txt names the check").toBeTruthy();
  expect(createUrl, "llms.txt names creation").toBeTruthy();
  expect(reportsUrl, "llms.txt names the render reports").toBeTruthy();
  expect(revisionsUrl, "llms.txt names the revisions").toBeTruthy();
  expect(staticSuffix, "llms.txt says how to render once").toBeTruthy();
  expect(recipe, "llms.txt gives the CSM's book recipe").toBeTruthy();
  return { checkUrl: checkUrl!, createUrl: createUrl!, reportsUrl: reportsUrl!, revisionsUrl: revisionsUrl!, staticSuffix: staticSuffix!, recipe: recipe!, scenarios };
}

/** The task's dashboard: the recipe's code, and a table of the book or the state to show. */
function dashboard(recipe: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My book of business</title></head>',
    '<body><main><h1>My book of business</h1><p id="state">Loading…</p><table><thead><tr><th scope="col">School</th><th scope="col">ARR</th></tr></thead><tbody id="rows"></tbody></table></main>',
    "<script>",
    recipe,
    "myBook().then((book) => {",
    '  const state = document.getElementById("state");',
    "  if (book.waitingOn) { state.textContent = book.waitingOn; return; }",
    '  state.textContent = book.note || book.rows.length + " schools";',
    '  const tbody = document.getElementById("rows");',
    "  for (const row of book.rows) {",
    '    const tr = document.createElement("tr");',
    '    for (const value of [row.name, row.arr]) { const td = document.createElement("td"); td.textContent = value == null ? "—" : String(value); tr.append(td); }',
    "    tbody.append(tr);",
    "  }",
    '}, (err) => { document.getElementById("state").textContent = err.status === 403 ? "You cannot see books of business." : err.message; });',
    "</script></body></html>",
  ].join("\n");
}

/** A browser renders the revision once, as a screenshot would, and its report reaches the server. */
async function renderOnce(page: Page, watchUrl: string, staticSuffix = "?static=1"): Promise<void> {
  await page.goto(`${new URL(watchUrl).pathname}${staticSuffix}`);
  await expect(page.locator('html[data-rendered="true"]')).toHaveCount(1);
}

interface Reports {
  revision: number;
  reports: { errors: unknown[]; refusals: unknown[]; requests: { path: string; status: number }[] }[];
}

test("an agent that reads only llms.txt builds the CSM's book, renders it cleanly and switches the demo state without republishing", async ({ request, page }) => {
  test.setTimeout(60_000);
  const protocol = await readProtocol(request);
  const html = dashboard(protocol.recipe);

  // Check until there is nothing to fix, publishing nothing meanwhile.
  const check = await (await request.post(protocol.checkUrl, { data: { html } })).json();
  expect(check.warnings).toEqual([]);
  expect(check.reads.paths).toEqual(expect.arrayContaining(["/me", "/cx/owners"]));

  const created = await request.post(protocol.createUrl, { data: { html, dash: "my-book" } });
  expect(created.status()).toBe(201);
  const draft = await created.json();
  expect(draft.warnings).toEqual([]);

  await renderOnce(page, draft.watchUrl, protocol.staticSuffix);
  await expect(page.frameLocator('[data-testid="dashboard-frame"]').locator("#state")).toHaveText(/^\d+ schools$/);
  const readId = draft.id as string;
  const reportsUrl = protocol.reportsUrl.replace("<read_id>", readId);
  await expect.poll(async () => ((await (await request.get(reportsUrl)).json()) as Reports).reports.length).toBeGreaterThan(0);
  const rendered = (await (await request.get(reportsUrl)).json()) as Reports;
  expect(rendered.revision).toBe(1);
  expect(rendered.reports[0]!.errors).toEqual([]);
  expect(rendered.reports[0]!.refusals).toEqual([]);
  expect(rendered.reports[0]!.requests.map((r) => `${r.path} ${r.status}`)).toEqual(expect.arrayContaining(["/me 200", "/cx/owners 200"]));

  // The outage state, without resending the HTML.
  expect(protocol.scenarios).toContain("outage");
  const switched = await request.post(new URL(draft.postUrl).pathname, { data: { scenario: "outage" } });
  expect(switched.status()).toBe(200);
  await renderOnce(page, draft.watchUrl, protocol.staticSuffix);
  await expect(page.frameLocator('[data-testid="dashboard-frame"]').locator("#state")).not.toHaveText("Loading…");

  // Exactly the two revisions it meant to publish, with the HTML it sent once.
  const revisions = (await (await request.get(protocol.revisionsUrl.replace("<read_id>", readId))).json()).revisions as { revision: number; scenario: string; html: string }[];
  expect(revisions.map((r) => [r.revision, r.scenario, r.html === html])).toEqual([
    [2, "outage", true],
    [1, "default", true],
  ]);
});

test("an MCP client runs the same loop: check, create, a clean render report, a scenario switch", async ({ baseURL, page }) => {
  test.setTimeout(60_000);
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/dashboards/playground/mcp", baseURL)));
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return result.structuredContent as Record<string, unknown>;
  };
  try {
    const protocol = await readProtocol(page.request);
    const html = dashboard(protocol.recipe);
    expect(((await ok("check_html", { html })) as { warnings: unknown[] }).warnings).toEqual([]);
    const draft = (await ok("create_draft", { html })) as { id: string; postUrl: string; watchUrl: string };
    await renderOnce(page, draft.watchUrl);
    await expect
      .poll(async () => ((await ok("read_render_reports", { watchUrl: draft.watchUrl })) as unknown as Reports).reports.length)
      .toBeGreaterThan(0);
    const reports = (await ok("read_render_reports", { watchUrl: draft.watchUrl, revision: 1 })) as unknown as Reports;
    expect(reports.reports[0]!.errors).toEqual([]);
    expect(await ok("update_draft", { postUrl: draft.postUrl, scenario: "outage" })).toMatchObject({ revision: 2 });
    expect(await ok("read_draft", { watchUrl: draft.watchUrl })).toMatchObject({ revision: 2, scenario: "outage", html });
  } finally {
    await client.close();
  }
});

/** A PNG's width and height, from its header. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("an agent with no browser of its own has the service render its dashboard at both sizes, sees the pictures, and trusts a report nobody can forge", async ({ request, baseURL }) => {
  test.setTimeout(90_000);
  const text = await protocolText(request);
  const protocol = await readProtocol(request);
  // What llms.txt says of the service's own renders, and nothing else.
  const renderUrl = /`POST (\S+\/draft\/<read_id>\/render)`/.exec(text)?.[1];
  expect(renderUrl, "llms.txt names the renderer").toBeTruthy();
  const viewports = [...(text.split("## Seeing it")[1] ?? "").matchAll(/`(desktop|phone)` (\d+)×(\d+)/g)].map((m) => ({ name: m[1]!, width: Number(m[2]) }));
  expect(viewports.map((v) => v.name)).toEqual(["desktop", "phone"]);

  const html = dashboard(protocol.recipe);
  const draft = await (await request.post(protocol.createUrl, { data: { html, dash: "my-book" } })).json();
  const url = renderUrl!.replace("<read_id>", draft.id as string);
  for (const v of viewports) {
    const res = await request.post(url, { data: { viewport: v.name } });
    expect(res.status(), await res.text()).toBe(200);
    const answer = await res.json();
    expect(answer.report).toMatchObject({ source: { kind: "service" }, settled: true, errors: [], refusals: [] });
    expect(answer.report.requests.map((r: { path: string; status: number }) => `${r.path} ${r.status}`)).toEqual(expect.arrayContaining(["/me 200", "/cx/owners 200"]));
    const picture = await request.get(new URL(answer.picture.url as string).pathname);
    expect(picture.headers()["content-type"]).toBe("image/png");
    const size = pngSize(await picture.body());
    expect(size).toEqual({ width: v.width, height: answer.picture.height });
  }

  // Anyone with the watch link may post a report claiming anything; the service's stands.
  const forged = { revision: 1, page: "watch", settled: true, elapsedMs: 1, errors: [{ kind: "error", message: "forged", line: 1, column: 1, count: 1 }], console: [], refusals: [], requests: [], dropped: 0 };
  for (let i = 0; i < 15; i++) expect((await request.post(protocol.reportsUrl.replace("<read_id>", draft.id as string), { data: forged })).status()).toBe(201);
  const reports = (await (await request.get(protocol.reportsUrl.replace("<read_id>", draft.id as string))).json()) as Reports & { sources: { service: string } };
  expect(reports.sources.service).toBe("clean");

  // Over MCP, the same render arrives as a picture the model can look at.
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/dashboards/playground/mcp", baseURL)));
  try {
    const result = (await client.callTool({ name: "render_draft", arguments: { readId: draft.id, viewport: "phone" } })) as CallToolResult;
    expect(result.isError ?? false, JSON.stringify(result.content).slice(0, 300)).toBe(false);
    const image = result.content.find((c) => c.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(pngSize(Buffer.from(image!.data, "base64")).width).toBe(390);
    expect(result.structuredContent).toMatchObject({ viewport: "phone", cached: true, report: { errors: [] } });
  } finally {
    await client.close();
  }
});

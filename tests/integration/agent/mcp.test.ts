import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { siteOperations } from "@/lib/contract/operations";
import { draftCheck, draftCreated, draftUpdated, draftView } from "@/lib/contract/playground";
import { llmsFullText, llmsText } from "@/lib/reference/llms";
import { allOperations, docsModel } from "@/lib/reference/model";
import { scenariosBody } from "@/lib/demo-api/answers";
import { backends } from "../support/backends";
import { DRAFT, postJson, startApp, type App } from "../playground/support";

// The MCP endpoint over real loopback HTTP, driven by the official MCP client: the tools an
// agent is shown, the whole loop through them, and that a tool call is the playground's own
// operation for the caller (the same allowance per address, the same refusals, the same
// cross-site rule), with the HTTP refusals of anything that is not an MCP request.

const MCP = "/dashboards/playground/mcp";
const BOOK =
  '<!doctype html><html><head><meta charset="utf-8"><title>My book</title></head><body><h1>My book</h1><p id="out">Loading…</p>\n<script>\n' +
  'const API = window.DASHBOARD_API_BASE || "/api";\n' +
  "async function load() {\n" +
  '  const out = document.getElementById("out");\n' +
  '  const res = await fetch(API + "/cx/book?owner=1");\n' +
  "  if (!res.ok) {\n    const { error, hint } = await res.json();\n    out.textContent = hint || error;\n    return;\n  }\n" +
  "  const body = await res.json();\n" +
  "  if (!body.ok) {\n    out.textContent = body.waitingOn;\n    return;\n  }\n" +
  '  out.textContent = body.data.rows.length + " schools";\n' +
  "}\nload();\n</script></body></html>";

/** What the endpoint answers with the envelope, each one exercised below; everything else is JSON-RPC. */
const HTTP_REFUSALS = ["method_not_allowed", "unsupported_media_type", "invalid_request", "draft_too_large"];
/** The 401 challenge of the tools that act as a person, exercised in tests/integration/signin/oauth.test.ts. */
const AUTHORIZATION_REFUSALS = ["unauthorized"];
/** The tools that act as a person, served where the authorization server is (tests/integration/signin/oauth.test.ts). */
const PERSON_TOOLS = ["draw_dashboard", "read_dashboard", "read_live_data", "show_dashboard"];

const sqlite = backends.find((b) => b.name === "sqlite")!;

async function connect(app: App, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${MCP}`), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The answer half of a tool's declared output (the other is the refusal). */
const answerSchema = (tool: { outputSchema?: unknown }) => (tool.outputSchema as { anyOf: unknown[] }).anyOf[0];

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/**
 * A refusal: isError, the envelope as `code: hint` in text and as fields in structured content
 * (which the tool's output schema declares beside the answer), or the SDK's own refusal of bad
 * arguments, in text alone.
 */
function refusal(result: CallToolResult): string {
  expect(result.isError, textOf(result)).toBe(true);
  const text = textOf(result);
  if (result.structuredContent !== undefined) {
    const envelope = result.structuredContent as { error: string; hint?: string };
    expect(text.split("\n")[0]).toBe(envelope.hint ? `${envelope.error}: ${envelope.hint}` : envelope.error);
  } else {
    expect(text).toMatch(/^(Input validation error|MCP error)/);
  }
  return text;
}

/** An answer: structured content, and the same JSON as text for clients that read text. */
function answer(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, textOf(result)).toBe(false);
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

describe("the playground's MCP endpoint", () => {
  let open: Awaited<ReturnType<typeof sqlite.open>>;
  let app: App;
  let client: Client;

  beforeAll(async () => {
    open = await sqlite.open();
    app = await startApp(open, { settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000 } });
    client = await connect(app);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await open.close();
  });

  it("lists the loop's tools with input schemas from the draft contract", async () => {
    expect(client.getInstructions()).toContain("watchUrl");
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(["check_html", "create_draft", "describe_endpoint", "list_scenarios", "read_demo_data", "read_draft", "read_render_reports", "render_draft", "show_draft", "update_draft"]);
    // Each is its operation's, as the registry names them: no tool without an entry, no entry without its tool.
    expect(Object.keys(byName).sort()).toEqual(siteOperations.flatMap((o) => ("tool" in o ? [o.tool.name] : [])).sort());

    const create = byName.create_draft!;
    expect(create.inputSchema).toMatchObject({ type: "object", required: ["html"], additionalProperties: false });
    expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual(["dash", "dataMode", "examples", "html", "scenario"]);
    expect(create.inputSchema.properties?.dash).toMatchObject({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$" });
    // The answer, or a refusal with its fields: an object at the root either way.
    expect(create.outputSchema).toMatchObject({ type: "object", anyOf: [expect.any(Object), { required: ["error"], properties: { currentRevision: expect.any(Object), retryAfter: expect.any(Object) } }] });
    expect(answerSchema(create)).toMatchObject({ type: "object", required: expect.arrayContaining(["id", "postUrl", "watchUrl", "eventsUrl", "revision", "warnings"]) });
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: "object", anyOf: [expect.any(Object), { required: ["error"] }] });
    // Short: what a tool does and the one rule an agent must not miss; the answer is its output schema.
    for (const tool of tools) expect(tool.description!.length, tool.name).toBeLessThan(700);
    expect(create.description).toContain("postUrl");
    expect(byName.check_html!.inputSchema).toEqual(create.inputSchema);

    const update = byName.update_draft!;
    expect(update.inputSchema).toMatchObject({ type: "object", required: ["postUrl"], additionalProperties: false });
    expect(Object.keys(update.inputSchema.properties ?? {}).sort()).toEqual(["baseRevision", "dash", "examples", "html", "postUrl", "scenario"]);
    // null clears: the schema says so, as the contract does.
    expect(update.inputSchema.properties?.scenario).toMatchObject({ type: ["string", "null"] });

    // A draft is named by what the caller holds: its read id, or its watchUrl.
    expect(Object.keys((byName.read_draft!.inputSchema as { properties: object }).properties).sort()).toEqual(["readId", "watchUrl"]);
    expect(byName.describe_endpoint!.inputSchema).toMatchObject({ required: ["path"] });
    expect(byName.describe_endpoint!.description).toContain("/cx/book");
    for (const name of ["check_html", "read_draft", "list_scenarios", "describe_endpoint", "read_render_reports", "render_draft"]) expect(byName[name]!.annotations?.readOnlyHint, name).toBe(true);
    for (const name of ["create_draft", "update_draft"]) expect(byName[name]!.annotations?.readOnlyHint, name).toBe(false);
    // llms-full.txt describes every tool the server lists, and no other; the index names them all.
    // This server has no authorization server behind it, so it lists the draft tools alone; the
    // tools that act as a person are listed beside them where it has (tests/integration/oauth).
    const every = [...Object.keys(byName), ...PERSON_TOOLS].sort();
    const mcpPart = llmsFullText("https://dash.example.test").split("## MCP")[1]?.split("\n## ")[0] ?? "";
    expect(mcpPart).toContain("https://dash.example.test/dashboards/playground/mcp");
    expect([...mcpPart.matchAll(/^- `([a-z_]+)`/gm)].map((m) => m[1]).sort()).toEqual(every);
    // The index only points there, and at the rules resource this server serves.
    const indexPart = llmsText("https://dash.example.test").split("## MCP")[1] ?? "";
    expect(indexPart).toContain("https://dash.example.test/dashboards/playground/mcp");
    expect(indexPart).toContain("dashboards://playground/rules.md");
    // So does the reference's description of the endpoint.
    const op = allOperations(docsModel()).find((o) => o.path === MCP);
    const toolsSentence = /Tools: ([^;.]*)[;.]/.exec(JSON.stringify(op?.description))?.[1] ?? "";
    expect([...toolsSentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort()).toEqual(every);
  });

  it("serves the writing rules and the states as resources and a prompt, in the words llms.txt prints", async () => {
    expect(client.getInstructions()).toContain("dashboards://playground/rules.md");
    const { resources } = await client.listResources();
    expect(resources.filter((r) => r.uri.startsWith("dashboards://")).map((r) => [r.uri, r.mimeType])).toEqual([
      ["dashboards://playground/rules.md", "text/markdown"],
      ["dashboards://playground/states.md", "text/markdown"],
    ]);
    const text = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    const rules = await text("dashboards://playground/rules.md");
    const states = await text("dashboards://playground/states.md");
    const index = llmsText(app.url);
    const section = (name: string) => index.split(`## ${name}\n\n`)[1]!.split("\n## ")[0]!;
    for (const line of section("Writing rules").split("\n").filter((l) => l.startsWith("- "))) expect(rules).toContain(line);
    for (const line of section("States to render").split("\n").filter((l) => l.startsWith("| `"))) expect(states).toContain(line);
    // The rules an agent must not miss, there for an agent that reads MCP alone.
    for (const rule of ["DASHBOARD_DATA_MODE", "DASHBOARD_PARAMS", "label demo data", "res.ok", "waitingOn", "nextCursor", "dashboard-snapshot"]) expect(rules, rule).toContain(rule);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["write_dashboard"]);
    const prompt = await client.getPrompt({ name: "write_dashboard", arguments: { task: "Open tickets by owner" } });
    const said = (prompt.messages[0]!.content as { text: string }).text;
    expect(said.startsWith(rules)).toBe(true);
    expect(said).toContain("Open tickets by owner");
  });

  it("runs the loop: check, create, a partial update, a refused blank update, read", async () => {
    const checked = draftCheck.parse(answer(await call(client, "check_html", { html: BOOK })));
    expect(checked).toEqual({ warnings: [], reads: { paths: ["/cx/book"], complete: true } });

    const created = draftCreated.parse(answer(await call(client, "create_draft", { html: BOOK, dash: "my-book" })));
    expect(created).toMatchObject({ revision: 1, warnings: [] });
    expect(created.postUrl.startsWith(`${app.url}${DRAFT}/`)).toBe(true);
    expect(created.watchUrl).toBe(`${app.url}/dashboards/playground/watch/${created.id}`);

    // Only the scenario: the HTML stays.
    const updated = draftUpdated.parse(answer(await call(client, "update_draft", { postUrl: created.postUrl, scenario: "outage" })));
    expect(updated).toMatchObject({ id: created.id, revision: 2, warnings: [] });
    const read = draftView.parse(answer(await call(client, "read_draft", { watchUrl: created.watchUrl })));
    expect(read).toMatchObject({ id: created.id, revision: 2, html: BOOK, scenario: "outage", dash: "my-book", reads: { paths: ["/cx/book"], complete: true } });

    const blank = refusal(await call(client, "update_draft", { postUrl: created.postUrl, html: "  <!-- soon -->\n" }));
    expect(blank).toMatch(/^invalid_draft: html: the document is empty/);
    expect(draftView.parse(answer(await call(client, "read_draft", { watchUrl: created.id }))).revision).toBe(2);

    // The write token alone works as postUrl; null clears; the draft as HTTP readers see it agrees.
    const token = new URL(created.postUrl).pathname.split("/").pop()!;
    expect(draftUpdated.parse(answer(await call(client, "update_draft", { postUrl: token, scenario: null, dash: null }))).revision).toBe(3);
    const overHttp = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(overHttp).toMatchObject({ revision: 3, html: BOOK, scenario: "default", dash: null });
  });

  it("offers the draft as an MCP App: a view with no network of its own, and reads checked and answered with the draft's own demo state", async () => {
    const { resources } = await client.listResources();
    const view = resources.find((r) => r.uri.startsWith("ui://"));
    expect(view).toMatchObject({ mimeType: "text/html;profile=mcp-app", _meta: { ui: { csp: {} } } });
    const { contents } = await client.readResource({ uri: view!.uri });
    const html = (contents[0] as { text: string }).text;
    expect(html).toContain("ui/initialize");
    expect(html).toMatch(/http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*connect-src 'none'/);
    // The dashboard's frame is held by the frame route's policy, Trusted Types included.
    expect(html).toContain("require-trusted-types-for 'script'");

    const created = draftCreated.parse(answer(await call(client, "create_draft", { html: BOOK, scenario: "outage", examples: { "/me": "member" } })));
    // As the view relays a dashboard's reads: exactly as fetched. A read the broker refuses is
    // the tool's error, carrying the status the browser's broker answers.
    const read = async (path: string, method?: string) => {
      const result = await call(client, "read_demo_data", { readId: created.id, path, asFetched: true, ...(method ? { method } : {}) });
      if (result.isError) {
        const { status, ...envelope } = result.structuredContent as { status: number; error: string; hint?: string };
        return { status, body: envelope as Record<string, unknown> };
      }
      const { status, body } = result.structuredContent as { status: number; body: string };
      return { status, body: JSON.parse(body) as Record<string, unknown> };
    };
    // The draft's scenario and its forced variant, as the browser's broker adds them.
    const direct = async (query: string) => {
      const res = await fetch(`${app.url}/dashboards/playground/api${query}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const outage = await direct("/cx/book?owner=1&scenario=outage");
    expect(outage.body).not.toEqual((await direct("/cx/book?owner=1")).body);
    expect(await read("/dashboards/playground/api/cx/book?owner=1")).toEqual(outage);
    const member = await direct("/me?scenario=outage&variant=member");
    expect(member.body).not.toEqual((await direct("/me?scenario=outage")).body);
    expect(await read("/dashboards/playground/api/me")).toEqual(member);
    // The broker's refusals: the dashboard does not choose the draft's scenario, writes nothing, reads only under its base.
    expect(await read("/dashboards/playground/api/cx/book?owner=1&scenario=rich")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    expect(await read("/dashboards/playground/api/me", "POST")).toMatchObject({ status: 405, body: { error: "method_not_allowed" } });
    expect(await read("/api/me")).toMatchObject({ status: 400, body: { error: "invalid_path" } });
    expect(await read("/dashboards/playground/api/nothing/here")).toMatchObject({ status: 404, body: { error: "not_found" } });
    // A live draft's reads are never answered here.
    const live = draftCreated.parse(answer(await call(client, "create_draft", { html: BOOK, dataMode: "live" })));
    const refusedLive = await call(client, "read_demo_data", { readId: live.id, path: "/dashboards/playground/api/me" });
    expect(refusedLive).toMatchObject({ isError: true, structuredContent: { status: 403, error: "live_not_granted" } });
    // An agent's read: the path as a dashboard writes it after the API base, before any draft exists.
    const agentRead = await call(client, "read_demo_data", { path: "/cx/book?owner=1", scenario: "outage" });
    expect(agentRead.isError ?? false, textOf(agentRead)).toBe(false);
    expect(JSON.parse((agentRead.structuredContent as { body: string }).body)).toEqual(outage.body);
    expect(await call(client, "read_demo_data", { path: "/cx/book?owner=1", scenario: "no-such" })).toMatchObject({ structuredContent: { status: 400 } });
    expect(await call(client, "read_demo_data", { path: "/api/me" })).toMatchObject({ isError: true, structuredContent: { status: 400, error: "invalid_path" } });
    // show_draft: the fields a host without apps can say, and never the document.
    const shown = answer(await call(client, "show_draft", { watchUrl: created.watchUrl }));
    expect(shown).toMatchObject({ id: created.id, revision: 1, scenario: "outage", htmlBytes: Buffer.byteLength(BOOK) });
    expect(shown).not.toHaveProperty("html");
    // Following: told the revision it shows, show_draft answers with the next one once it is written.
    const following = call(client, "show_draft", { readId: created.id, afterRevision: 1 });
    answer(await call(client, "update_draft", { postUrl: created.postUrl, scenario: null }));
    expect(answer(await following)).toMatchObject({ id: created.id, revision: 2, scenario: "default" });
    // Behind already: answered at once with what there is.
    expect(answer(await call(client, "show_draft", { readId: created.id, afterRevision: 0 }))).toMatchObject({ revision: 2 });
    expect(refusal(await call(client, "show_draft", { readId: created.id, afterRevision: -1 }))).toContain("afterRevision");
  });

  it("answers the playground's refusals as tool errors with their codes and hints", async () => {
    const created = draftCreated.parse(answer(await call(client, "create_draft", { html: "<p>one</p>" })));
    const conflict = await call(client, "update_draft", { postUrl: created.postUrl, html: "<p>two</p>", baseRevision: 5 });
    expect(refusal(conflict)).toMatch(/^revision_conflict: .*\b1\b/);
    // The current revision is a field of the refusal, not only words.
    expect(JSON.parse(refusal(conflict).split("\n")[1] ?? "{}")).toMatchObject({ error: "revision_conflict", currentRevision: 1 });
    // As structured content too, which the v1 client above held to the tool's declared output.
    expect(conflict.structuredContent).toMatchObject({ error: "revision_conflict", currentRevision: 1 });
    expect(refusal(await call(client, "update_draft", { postUrl: created.postUrl, scenario: "no-such-scenario" }))).toMatch(/^unknown_scenario: /);
    expect(refusal(await call(client, "create_draft", { html: "<p>x</p>", examples: { "/cx/book": "no-such-variant" } }))).toMatch(/^unknown_example: /);
    // A read id never writes, whether sent as a bare token or as the watch URL.
    expect(refusal(await call(client, "update_draft", { postUrl: created.id, html: "<p>x</p>" }))).toMatch(/^no_such_draft/);
    expect(refusal(await call(client, "update_draft", { postUrl: created.watchUrl, html: "<p>x</p>" }))).toMatch(/^invalid_request: postUrl: /);
    expect(refusal(await call(client, "read_draft", { watchUrl: "A".repeat(43) }))).toMatch(/^no_such_draft/);
    expect(draftView.parse(answer(await call(client, "read_draft", { watchUrl: created.watchUrl }))).revision).toBe(1);
    expect(draftView.parse(answer(await call(client, "read_draft", { readId: created.id }))).revision).toBe(1);
    // Arguments outside the contract's schema are refused before anything is written.
    const bad = await call(client, "create_draft", { html: "<p>x</p>", dash: "Not A Slug" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("dash");
  });

  it("describes an API endpoint from the endpoints document, by template or concrete path", async () => {
    type Described = {
      apiBase: string;
      path: string;
      query: { name: string; required: boolean; min?: number; max?: number }[];
      answer: string;
      errors: string[];
      pagedList?: string;
      demoVariants: string[];
      notes: string[];
      schemas?: { query: { properties: Record<string, unknown> }; response: unknown; errorEnvelope: unknown };
    };
    const book = answer(await call(client, "describe_endpoint", { path: "/cx/book" })) as Described;
    expect(book.apiBase).toBe("/dashboards/playground/api");
    expect(book.path).toBe("/cx/book");
    expect(book.query.map((q) => q.name)).toEqual(expect.arrayContaining(["owner", "days", "from", "to", "basis"]));
    expect(book.query.find((q) => q.name === "days")).toMatchObject({ required: false, min: 1, max: 365 });
    expect(book.query.find((q) => q.name === "owner")).toMatchObject({ required: true });
    expect(book.errors).toEqual(expect.arrayContaining(["400 owner_required"]));
    expect(book.answer).toContain("waitingOn: string");
    expect(book.demoVariants).toEqual(expect.arrayContaining(["rich", "empty"]));
    expect(book.notes.join(" ")).toContain("waitingOn");
    // Nothing said once for every endpoint is repeated in each answer: the snapshot rules are the rules resource's.
    expect(book.notes.join(" ")).not.toContain("snapshot");
    expect(book).not.toHaveProperty("schemas");
    const withSchemas = answer(await call(client, "describe_endpoint", { path: "/cx/book", schemas: true })) as Described;
    expect(Object.keys(withSchemas.schemas!.query.properties)).toEqual(book.query.map((q) => q.name));
    expect(withSchemas.schemas!.response).toMatchObject({ anyOf: expect.any(Array) });

    const companies = answer(await call(client, "describe_endpoint", { path: "/dashboards/playground/api/crm/customers/companies?limit=3" })) as Described;
    expect(companies).toMatchObject({ path: "/crm/:instance/companies", pagedList: "companies" });
    expect(companies.query.find((q) => q.name === "limit")).toMatchObject({ min: 1, max: 200 });
    expect(companies.notes.join(" ")).toContain("nextCursor");
    // Paged without a page size: nothing here says it takes a limit.
    const conversations = answer(await call(client, "describe_endpoint", { path: "/vendors/support/conversations" })) as Described;
    expect(conversations.query.map((q) => q.name)).toEqual(["cursor"]);
    expect(JSON.stringify(conversations)).not.toMatch(/limit: 1 to|default 50/);

    expect(refusal(await call(client, "describe_endpoint", { path: "/no/such/thing" }))).toMatch(/^not_found: .*\/cx\/book/);
  });

  it("refuses a tool's own bad arguments naming the field and the form it takes", async () => {
    for (const [name, args, expected] of [
      ["describe_endpoint", {}, /\bpath: required: an API path such as "\/cx\/book"/],
      ["describe_endpoint", { path: 5 }, /\bpath: must be an API path, a string such as "\/cx\/book"/],
      ["read_draft", {}, /required: readId \(the `id` create_draft answered\) or watchUrl, one of the two/],
      ["read_draft", { readId: "A".repeat(22), watchUrl: "A".repeat(22) }, /required: readId \(the `id` create_draft answered\) or watchUrl, one of the two/],
      ["read_render_reports", { watchUrl: "A".repeat(22), revision: "x" }, /\brevision: must be a positive integer: the revision whose reports to read \(e\.g\. 2\)/],
      ["read_render_reports", { watchUrl: "A".repeat(22), revision: 0 }, /\brevision: must be a positive integer: the revision whose reports to read \(e\.g\. 2\)/],
      ["update_draft", { scenario: "outage" }, /\bpostUrl: required: the postUrl create_draft answered, or the write token/],
    ] as const) {
      const text = refusal(await call(client, name, args));
      expect(text, `${name} ${JSON.stringify(args)}`).toMatch(expected);
      expect(text, `${name} ${JSON.stringify(args)}`).not.toMatch(/Invalid input|expected \w+, received|Too small/);
    }
  });

  it("answers a JSON-RPC request in JSON whatever its Accept header says, since every answer here is JSON", async () => {
    for (const accept of [undefined, "*/*", "application/json"]) {
      const res = await postJson(`${app.url}${MCP}`, { jsonrpc: "2.0", id: 3, method: "tools/list" }, accept === undefined ? {} : { accept });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(10);
    }
  });

  it("lists the scenarios as GET /scenarios answers them", async () => {
    const listed = answer(await call(client, "list_scenarios"));
    expect(listed).toEqual(JSON.parse(JSON.stringify(scenariosBody())));
    // Declared, so a client can check it: the SDK's client held the answer above to this schema.
    const { tools } = await client.listTools();
    expect(answerSchema(tools.find((t) => t.name === "list_scenarios")!)).toMatchObject({ type: "object", required: expect.arrayContaining(["apiBase", "default", "scenarios", "paths", "variants", "usage"]) });
    expect(answerSchema(tools.find((t) => t.name === "describe_endpoint")!)).toMatchObject({ type: "object", required: expect.arrayContaining(["apiBase", "path", "query", "answer", "errors", "demoVariants", "notes"]) });
    expect(listed).toMatchObject({ default: "default" });
  });

  it("refuses what is not an MCP request with the error envelope; GET and DELETE are not taken", async () => {
    const url = `${app.url}${MCP}`;
    const seen = new Set<string>();
    const envelope = async (res: Response) => {
      const { error } = (await res.json()) as { error: string };
      seen.add(error);
      return [res.status, error];
    };
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(url, { method, headers: { accept: "text/event-stream" } });
      expect(res.headers.get("allow"), method).toBe("POST");
      expect(await envelope(res)).toEqual([405, "method_not_allowed"]);
    }
    expect(await envelope(await fetch(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }))).toEqual([415, "unsupported_media_type"]);
    expect(await envelope(await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }))).toEqual([400, "invalid_request"]);
    expect(await envelope(await postJson(url, { hello: "world" }))).toEqual([400, "invalid_request"]);
    expect(await envelope(await postJson(url, []))).toEqual([400, "invalid_request"]);
    // Over the bound of a 2 MiB draft as JSON: refused while reading.
    const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "check_html", arguments: { html: "\u0001".repeat(2_200_000) } } });
    expect(await envelope(await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: huge }))).toEqual([413, "draft_too_large"]);

    expect([...seen].sort()).toEqual([...HTTP_REFUSALS].sort());

    // JSON-RPC without a session: tools/list answers in one JSON answer, with no session id and no cache.
    const listed = await postJson(url, { jsonrpc: "2.0", id: 7, method: "tools/list" }, { accept: "application/json, text/event-stream" });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("content-type")).toContain("application/json");
    expect(listed.headers.get("mcp-session-id")).toBeNull();
    expect(listed.headers.get("cache-control")).toBe("no-store");
    expect(((await listed.json()) as { id: number; result: { tools: unknown[] } }).result.tools).toHaveLength(10);
  });

  it("is documented in the reference with every refusal it answers over HTTP", () => {
    const op = allOperations(docsModel()).find((o) => o.path === MCP);
    expect(op?.method).toBe("POST");
    expect(op?.errors.map((e) => e.code).sort()).toEqual([...HTTP_REFUSALS, ...AUTHORIZATION_REFUSALS, "internal_error"].sort());
  });
});

describe("an MCP caller is the same caller to the playground", () => {
  let open: Awaited<ReturnType<typeof sqlite.open>>;
  let app: App;

  beforeAll(async () => {
    open = await sqlite.open();
    app = await startApp(open, { settings: { createsPerMinute: 3 } });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  it("spends the address's creations with HTTP callers, and meets the cross-site rule", async () => {
    const client = await connect(app);
    const crossSite = await connect(app, { "sec-fetch-site": "cross-site" });
    try {
      expect(refusal(await call(crossSite, "create_draft", { html: "<p>stolen</p>" }))).toMatch(/^cross_site_write: /);
      // The refusal above spent nothing: three creations remain, two over HTTP and one over MCP.
      for (let i = 0; i < 2; i++) expect((await postJson(`${app.url}${DRAFT}`, { html: "<p>http</p>" })).status).toBe(201);
      draftCreated.parse(answer(await call(client, "create_draft", { html: "<p>mcp</p>" })));
      const limited = await call(client, "create_draft", { html: "<p>one too many</p>" });
      expect(refusal(limited)).toMatch(/^rate_limited: Too many draft creations from your address; retry in \d+ s\.\n\{.*"retryAfter":\d+\}$/);
      expect(limited.structuredContent).toMatchObject({ error: "rate_limited", retryAfter: expect.any(Number) });
      const overHttp = await postJson(`${app.url}${DRAFT}`, { html: "<p>http</p>" });
      expect([overHttp.status, ((await overHttp.json()) as { error: string }).error]).toEqual([429, "rate_limited"]);
      // Checks have an allowance of their own, as over HTTP.
      expect(answer(await call(client, "check_html", { html: "<p>still checked</p>" }))).toMatchObject({ reads: { paths: [] } });
    } finally {
      await client.close();
      await crossSite.close();
    }
  });
});

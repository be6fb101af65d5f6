import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { backends } from "../support/backends";
import { startApp, type App } from "../playground/support";

// The MCP endpoint on the specification's current revision, 2026-07-28: no handshake, every
// request carrying its version and capabilities, `server/discover`, cache hints, the standard
// request headers. Driven by the official v2 client (pinned, and negotiating), and by hand where
// a client would never send what is tested; every modern answer is held to the revision's own
// published schema.json, not to the SDK that wrote it.

const MCP = "/dashboards/playground/mcp";
const MODERN = "2026-07-28";
const SCHEMA = JSON.parse(readFileSync(path.join(process.cwd(), "..", "shared", "mcp-spec", MODERN, "schema.json"), "utf8")) as { $defs: Record<string, unknown> };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(SCHEMA, "mcp");

/** The schema's errors for `value` as the definition `name`, or none. */
function schemaErrors(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`mcp#/$defs/${name}`);
  if (!validate) throw new Error(`schema.json defines no ${name}`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const sqlite = backends.find((b) => b.name === "sqlite")!;

const CLIENT_INFO = { name: "modern-test", version: "1.0.0" };

/** A modern request as the revision writes it: its version, capabilities and identity in `_meta`, the method and name in headers too. */
function modern(method: string, params: Record<string, unknown> = {}, opts: { version?: string; headers?: Record<string, string>; id?: number } = {}) {
  const version = opts.version ?? MODERN;
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...opts.headers,
  };
  const body = {
    jsonrpc: "2.0",
    id: opts.id ?? 1,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      },
    },
  };
  return { headers, body: JSON.stringify(body) };
}

interface Answer {
  status: number;
  body: { jsonrpc: string; id?: number; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

async function post(app: App, request: { headers: Record<string, string>; body: string }): Promise<Answer> {
  const res = await fetch(`${app.url}${MCP}`, { method: "POST", headers: request.headers, body: request.body });
  expect(res.headers.get("content-type")).toContain("application/json");
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("MCP on the 2026-07-28 revision", () => {
  let open: Awaited<ReturnType<typeof sqlite.open>>;
  let app: App;

  beforeAll(async () => {
    open = await sqlite.open();
    app = await startApp(open, { settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000 } });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  it("serves the official v2 client pinned to 2026-07-28: discover, tools, resources, and the draft loop", async () => {
    const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${MCP}`)));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const discovered = await client.discover();
      // The versions a request may name in _meta; the initialize-era ones are offered by initialize.
      expect(discovered.supportedVersions).toEqual([MODERN]);
      expect(discovered._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "dashboards-playground" });
      expect(discovered.instructions).toContain("watchUrl");

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("create_draft");
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain("ui://dashboards-playground/draft.html");

      const created = (await client.callTool({ name: "create_draft", arguments: { html: "<h1>Book</h1>" } })) as CallToolResult;
      expect(created.isError ?? false, textOf(created)).toBe(false);
      const draft = created.structuredContent as { id: string; postUrl: string; revision: number };
      expect(draft.revision).toBe(1);
      const updated = (await client.callTool({ name: "update_draft", arguments: { postUrl: draft.postUrl, html: "<h1>Book, two</h1>", baseRevision: 1 } })) as CallToolResult;
      expect(updated.structuredContent).toMatchObject({ revision: 2 });
      const read = (await client.callTool({ name: "read_draft", arguments: { readId: draft.id } })) as CallToolResult;
      expect(read.structuredContent).toMatchObject({ revision: 2, html: "<h1>Book, two</h1>" });
      const view = await client.readResource({ uri: "ui://dashboards-playground/draft.html" });
      expect(view.contents[0]).toMatchObject({ mimeType: "text/html;profile=mcp-app" });
    } finally {
      await client.close();
    }
  });

  it("lands the negotiating v2 client on the modern era, and still serves one that opens with initialize", async () => {
    const auto = new Client(CLIENT_INFO, { versionNegotiation: { mode: "auto" } });
    await auto.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${MCP}`)));
    expect(auto.getProtocolEra()).toBe("modern");
    expect((await auto.listTools()).tools.length).toBeGreaterThan(0);
    await auto.close();

    const legacy = new Client(CLIENT_INFO);
    await legacy.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${MCP}`)));
    expect(legacy.getProtocolEra()).toBe("legacy");
    expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect((await legacy.listTools()).tools.length).toBeGreaterThan(0);
    await legacy.close();
  });

  it("answers every modern request in the revision's own schema, with resultType, cache hints and its identity", async () => {
    const discover = await post(app, modern("server/discover"));
    expect(discover.status).toBe(200);
    expect(schemaErrors("DiscoverResult", discover.body.result)).toEqual([]);
    expect(discover.body.result).toMatchObject({ resultType: "complete" });

    const list = await post(app, modern("tools/list"));
    expect(schemaErrors("ListToolsResult", list.body.result)).toEqual([]);
    expect(list.body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: expect.stringMatching(/^(public|private)$/) });
    expect(list.body.result?._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "dashboards-playground" } });
    // In the same order every time, so a client's cache and a model's prompt cache hold.
    const names = (list.body.result?.tools as { name: string }[]).map((t) => t.name);
    expect((await post(app, modern("tools/list"))).body.result?.tools).toEqual(list.body.result?.tools);
    expect(names).toEqual(["check_html", "create_draft", "update_draft", "read_draft", "read_render_reports", "render_draft", "list_scenarios", "describe_endpoint", "show_draft", "read_demo_data"]);

    const resources = await post(app, modern("resources/list"));
    expect(schemaErrors("ListResourcesResult", resources.body.result)).toEqual([]);
    expect(resources.body.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: expect.any(String) });
    const read = await post(app, modern("resources/read", { uri: "ui://dashboards-playground/draft.html" }));
    expect(schemaErrors("ReadResourceResult", read.body.result), JSON.stringify(read.body)).toEqual([]);

    const scenarios = await post(app, modern("tools/call", { name: "list_scenarios", arguments: {} }));
    expect(schemaErrors("CallToolResult", scenarios.body.result)).toEqual([]);
    expect(scenarios.body.result).toMatchObject({ resultType: "complete" });
    const refused = await post(app, modern("tools/call", { name: "read_draft", arguments: { readId: "A".repeat(22) } }));
    expect(schemaErrors("CallToolResult", refused.body.result)).toEqual([]);
    expect(refused.body.result, JSON.stringify(refused.body.result)).toMatchObject({ isError: true, structuredContent: { error: expect.any(String) } });
    // Every answer and refusal is what its tool declares.
    const tools = list.body.result?.tools as { name: string; outputSchema?: object }[];
    const declared = (name: string) => ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
    for (const [name, result] of [["list_scenarios", scenarios], ["read_draft", refused]] as const) {
      const valid = declared(name);
      expect(valid(result.body.result?.structuredContent), `${name}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
    expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);
  });

  it("refuses a version it does not speak with -32022 and the list it does", async () => {
    const answer = await post(app, modern("tools/list", {}, { version: "1900-01-01" }));
    expect(answer.status).toBe(400);
    expect(schemaErrors("UnsupportedProtocolVersionError", answer.body)).toEqual([]);
    expect(answer.body.error).toMatchObject({ code: -32022, data: { requested: "1900-01-01", supported: expect.arrayContaining([MODERN, "2025-11-25"]) } });
  });

  it("refuses a modern request whose headers disagree with its body, or leave one out (-32020)", async () => {
    for (const [what, request] of [
      ["Mcp-Method names another method", modern("tools/list", {}, { headers: { "mcp-method": "resources/list" } })],
      ["Mcp-Name names another tool", modern("tools/call", { name: "list_scenarios", arguments: {} }, { headers: { "mcp-name": "create_draft" } })],
      ["Mcp-Name left out", (() => { const r = modern("tools/call", { name: "list_scenarios", arguments: {} }); delete r.headers["mcp-name"]; return r; })()],
      ["Mcp-Method left out", (() => { const r = modern("tools/list"); delete r.headers["mcp-method"]; return r; })()],
    ] as const) {
      const answer = await post(app, request);
      expect(answer.status, what).toBe(400);
      expect(schemaErrors("HeaderMismatchError", answer.body), what).toEqual([]);
      expect(answer.body.result, what).toBeUndefined();
    }
  });

  it("answers a resource that does not exist with -32602, as the revision numbers it", async () => {
    const answer = await post(app, modern("resources/read", { uri: "ui://dashboards/nothing" }));
    expect(answer.body.error?.code).toBe(-32602);
    expect(schemaErrors("JSONRPCErrorResponse", answer.body)).toEqual([]);
  });
});

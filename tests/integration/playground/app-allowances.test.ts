import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createApp, type App } from "@/lib/root";
import { parseConfig } from "@/lib/config";
import { PLAYGROUND_API_BASE, PLAYGROUND_BASE } from "@/lib/contract/playground";
import { installPeerStamp } from "@/lib/http/peer-stamp";
import { errorResponse } from "@/lib/http/respond";
import type { Method } from "@/lib/http/edge";
import { backends } from "../support/backends";
import { serveStreaming, type StreamingServer } from "../support/loopback";

// The app as the process builds it (createApp), its demo API route and its MCP endpoint over
// loopback HTTP: an MCP caller and an HTTP caller spend one allowance of demo-API reads, as the
// MCP endpoint promises, not one each. Every request comes from 127.0.0.1, one address.

const MCP = `${PLAYGROUND_BASE}/mcp`;
const ALLOWANCE = 3;
const sqlite = backends.find((b) => b.name === "sqlite")!;

describe("the app's demo-API allowance", () => {
  let open: Awaited<ReturnType<typeof sqlite.open>>;
  let server: StreamingServer;
  let app: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-allowances-"));

  beforeAll(async () => {
    // As app() does for the process: limits count the stamped peer address.
    installPeerStamp();
    open = await sqlite.open();
    app = createApp(parseConfig({ DATA_DIR: dataDir, SECRET_KEY: "allowances-test-key-allowances-test-key", PLAYGROUND_DEMO_READS_PER_MIN: String(ALLOWANCE) }), { storage: open });
    server = await serveStreaming(async (request) => {
      const { pathname } = new URL(request.url);
      const method = request.method as Method;
      if (pathname === MCP) return app.routes.agent.mcp[method](request);
      if (pathname.startsWith(`${PLAYGROUND_API_BASE}/`)) {
        return app.routes.playground.demoApi[method](request, { params: { path: pathname.slice(PLAYGROUND_API_BASE.length + 1).split("/").map(decodeURIComponent) } });
      }
      return errorResponse("not_found");
    });
  });
  afterAll(async () => {
    await server.close();
    await (await app.playground()).close();
    await open.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function overMcp(): Promise<CallToolResult> {
    const client = new Client({ name: "allowances-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${MCP}`)));
    try {
      return (await client.callTool({ name: "read_demo_data", arguments: { path: "/cx/owners" } })) as CallToolResult;
    } finally {
      await client.close();
    }
  }
  const overHttp = () => fetch(`${server.url}${PLAYGROUND_API_BASE}/cx/owners`);

  it("is one allowance for MCP and HTTP callers: spent over one, it is spent for the other", async () => {
    for (let i = 0; i < ALLOWANCE - 1; i++) expect((await overHttp()).status).toBe(200);
    const last = await overMcp();
    expect(last.isError ?? false).toBe(false);
    expect((last.structuredContent as { status: number }).status).toBe(200);
    // Both ways refused now, with the same words.
    const refused = await overMcp();
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 429, error: "rate_limited", hint: expect.stringMatching(/^Too many demo API reads from your address; retry in \d+ s\.$/) });
    const http = await overHttp();
    expect(http.status).toBe(429);
    expect(((await http.json()) as { error: string }).error).toBe("rate_limited");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as scenariosRoute from "@/app/dashboards/playground/scenarios/route";
import { endpointById } from "@/lib/contract/endpoints";
import { scenarioNamed } from "@/lib/demo-api/data";
import { backends } from "../support/backends";
import { DRAFT, postJson, startApp, type App } from "../playground/support";

// The shared-districts scenario as an agent meets it: listed by /scenarios and the MCP
// list_scenarios tool, taken by a draft, and answered by the demo API over real HTTP with
// /cx/owners, /cx/book and /cx/districts telling one story of who owns which district.

const SCENARIO = "shared-districts";
const MCP = "/dashboards/playground/mcp";
const listed = z.object({ scenarios: z.array(z.object({ name: z.string(), description: z.string(), examples: z.record(z.string(), z.string()) })) }).loose();

const sqlite = backends.find((b) => b.name === "sqlite")!;

describe("the shared-districts scenario over the playground", () => {
  let open: Awaited<ReturnType<typeof sqlite.open>>;
  let app: App;

  beforeAll(async () => {
    open = await sqlite.open();
    app = await startApp(open);
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  /** A demo API answer for the scenario, read as a dashboard reads it: `{ok: true, data}` through the endpoint's own schema. */
  async function cx<T>(apiPath: string, id: "cx.owners" | "cx.book" | "cx.districts", query: Record<string, string> = {}): Promise<T> {
    const url = new URL(`${app.url}/dashboards/playground/api${apiPath}`);
    for (const [k, v] of Object.entries({ ...query, scenario: SCENARIO })) url.searchParams.set(k, v);
    const res = await fetch(url);
    expect(res.status, url.pathname).toBe(200);
    const body = endpointById(id).response.parse(await res.json()) as { ok: boolean; data?: T };
    if (!body.ok || body.data === undefined) throw new Error(`${apiPath} is not ready`);
    return body.data;
  }

  it("is listed by GET /scenarios with its description", async () => {
    const res = await scenariosRoute.GET(new Request("http://app.test/dashboards/playground/scenarios"));
    expect(res.status).toBe(200);
    const entry = listed.parse(await res.json()).scenarios.find((s) => s.name === SCENARIO);
    expect(entry?.description).toBe(scenarioNamed(SCENARIO)?.description);
    expect(entry?.description).toContain("Lakefield Public Schools is a tie");
    expect(entry?.examples).toEqual({ "/cx/owners": "shared_districts", "/cx/book": "shared_districts", "/cx/districts": "shared_districts" });
  });

  it("is listed by the MCP list_scenarios tool", async () => {
    const client = new Client({ name: "shared-districts-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${MCP}`)));
    try {
      const result = (await client.callTool({ name: "list_scenarios", arguments: {} })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const entry = listed.parse(result.structuredContent).scenarios.find((s) => s.name === SCENARIO);
      expect(entry?.description).toBe(scenarioNamed(SCENARIO)?.description);
    } finally {
      await client.close();
    }
  });

  it("is a scenario a draft takes", async () => {
    const res = await postJson(`${app.url}${DRAFT}`, { html: "<p>owners</p>", scenario: SCENARIO });
    expect(res.status, await res.clone().text()).toBe(201);
    const { watchUrl } = (await res.json()) as { watchUrl: string };
    const id = new URL(watchUrl).pathname.split("/").at(-1) ?? "";
    const draft = (await (await fetch(`${app.url}${DRAFT}/${id}`)).json()) as { scenario: string };
    expect(draft.scenario).toBe(SCENARIO);
  });

  it("answers /cx/owners, /cx/book and /cx/districts in agreement: districts shared by several CSMs, one owning most", async () => {
    type Window = { sinceIso: string; untilIso: string };
    const { owners } = await cx<{ owners: { ownerId: string; name: string }[] }>("/cx/owners", "cx.owners");
    const districts = await cx<{ window: Window; rows: { name: string }[] }>("/cx/districts", "cx.districts");
    const names = new Set(districts.rows.map((d) => d.name));

    const counts = new Map<string, Map<string, number>>();
    const schools = new Set<string>();
    for (const o of owners) {
      const book = await cx<{ ownerId: string; window: Window; rows: { companyId: string; districtName: string }[] }>("/cx/book", "cx.book", { owner: o.ownerId });
      expect(book.ownerId).toBe(o.ownerId);
      // The same window as the districts': both end today and look back the same default span.
      expect(book.window).toEqual(districts.window);
      for (const r of book.rows) {
        expect(names.has(r.districtName), `${o.name}: ${r.districtName}`).toBe(true);
        expect(schools.has(r.companyId), `${r.companyId} in two books`).toBe(false);
        schools.add(r.companyId);
        const c = counts.get(r.districtName) ?? new Map<string, number>();
        counts.set(r.districtName, c.set(o.name, (c.get(o.name) ?? 0) + 1));
      }
    }

    // Every district the books name is a /cx/districts row, and every such row with schools is in some book.
    expect([...counts.keys()].sort()).toEqual([...names].sort());
    const shared = [...counts].filter(([, c]) => c.size > 1);
    expect(shared.length).toBeGreaterThan(counts.size / 2);
    for (const [district, c] of shared) {
      const top = Math.max(...c.values());
      const leaders = [...c].filter(([, n]) => n === top).map(([name]) => name);
      if (district === "Lakefield Public Schools") expect(leaders.sort()).toEqual(["Casey Morgan", "Elena Voss"]);
      else expect(leaders, district).toHaveLength(1);
    }
    expect(Object.fromEntries(counts.get("Clear Crossing Independent School District") ?? [])).toEqual({ "Marcus Bell": 4, "Priya Raman": 2, "Casey Morgan": 2 });
  });
});

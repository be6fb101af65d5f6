import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { PLAYGROUND_API_BASE, draftView } from "@/lib/contract/playground";
import { orRefusal, plainInput, relayedRead } from "@/lib/contract/mcp-outputs";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { defaultScenario } from "@/lib/demo-api/data";
import { checkBrokerRequest, demoReadPath } from "@/lib/frame/protocol";
import { JSON_CONTENT_TYPE, json, stringify } from "@/lib/http/respond";
import { refusalResult, thrownResponse } from "./results";
import { READ_URL, capabilityOf, readDraft, reading, required, playgroundTool, type ToolContext } from "./shared";

const demoReadFields = z
  .object({
    readId: z.string({ error: "must be a string: the draft's read id" }).optional().meta({ description: "A draft's id: its demo state answers" }),
    scenario: z.string({ error: "must be a string: a scenario list_scenarios names" }).optional().meta({ description: "Or a scenario" }),
    method: z.string().optional().meta({ description: "GET" }),
    path: z.string({ error: required("the API path and query, as the dashboard writes it") }).meta({ description: "As after the API base: `/cx/book?owner=…`" }),
    asFetched: z.boolean().optional().meta({ description: "The inline view's: path as fetched" }),
  })
  .strict()
  .refine((v) => !(v.readId !== undefined && v.scenario !== undefined), { message: "readId or scenario, not both: a draft's read answers with its own scenario" });

const envelopeOf = (status: number, error: string, hint: string) => json({ error, hint }, status);

/** read_demo_data: GET /api/<path>'s allowance and answer, in a draft's demo state (read as GET /draft/<read_id> reads it) or a scenario's. */
export const readDemoData = playgroundTool("playground.demoApi", (server, ctx, { tool: { name, title, description } }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(demoReadFields),
      outputSchema: orRefusal(relayedRead),
      annotations: reading,
      // The inline view relays its dashboard's reads here; an agent may look at the data too.
      _meta: { ui: { visibility: ["model", "app"] } },
    },
    ({ readId, scenario, method, path, asFetched }) =>
      demoDataResult(async () => {
        // The view relays a dashboard's read as the watch page's broker would answer it, so the
        // inline view shows what a watcher sees; an agent may leave out the API base.
        const check = checkBrokerRequest(method ?? "GET", asFetched ? path : underApiBase(path), PLAYGROUND_API_BASE);
        if (!check.ok) return envelopeOf(check.status, check.error, check.hint);
        const p = await ctx.playground();
        let state: { scenario?: string; examples?: Readonly<Record<string, string>> };
        if (readId !== undefined) {
          const id = capabilityOf(readId, READ_URL, "readId: pass the draft's read id.");
          const view = draftView.parse(JSON.parse(await readDraft(ctx, p, id)));
          if (view.dataMode !== "demo") return envelopeOf(403, "live_not_granted", "A live draft's data is shown only in a browser whose signed-in viewer agreed to it.");
          state = view;
        } else {
          state = { scenario: scenario ?? defaultScenario };
        }
        const upstream = demoReadPath(check.pathname, check.search, check.endpoint, state);
        const q = upstream.indexOf("?");
        // The same allowance as GET /api/<path>: the app's demo-API route spends it too.
        p.demoReads.spend(ctx.request);
        return { relayed: demoApiResponse({ path: q === -1 ? upstream : upstream.slice(0, q), search: new URL(`${PLAYGROUND_API_BASE}${upstream}`, "http://localhost").searchParams }) };
      }, ctx),
  ),
);

/**
 * A demo read: the demo API's answer, whatever its status, as fields the view hands to the
 * dashboard. A read refused before it reached the API (a write, a path outside it, an unknown
 * draft, a spent allowance) is the tool's own error, with the status a browser's broker would
 * have answered.
 */
async function demoDataResult(answer: () => Promise<{ relayed: { status: number; body: unknown } } | Response>, { log }: ToolContext): Promise<CallToolResult> {
  let done: { relayed: { status: number; body: unknown } } | Response;
  try {
    done = await answer();
  } catch (err) {
    done = thrownResponse(err, log);
  }
  if (done instanceof Response) {
    const status = done.status;
    const result = await refusalResult(done);
    return { ...result, structuredContent: { ...(result.structuredContent as Record<string, unknown>), status } };
  }
  const body = stringify(done.relayed.body);
  const read = { status: done.relayed.status, contentType: JSON_CONTENT_TYPE, body };
  return { content: [{ type: "text", text: `${read.status} ${body.slice(0, 200)}` }], structuredContent: read };
}

/**
 * A read as an agent writes it, under the demo API's base: `/cx/book?owner=…` is relative to
 * the API base, as an endpoint's path is listed.
 */
function underApiBase(raw: string): string {
  const trimmed = raw.trim();
  // A whole URL, the demo base's own spelling and the live base's (refused, as a dashboard's
  // read of /api is refused on demo data) are read as written.
  if (!trimmed.startsWith("/") || trimmed.startsWith(`${PLAYGROUND_API_BASE}/`) || trimmed === PLAYGROUND_API_BASE || trimmed.startsWith("/api/") || trimmed.startsWith("//")) return trimmed;
  return `${PLAYGROUND_API_BASE}${trimmed}`;
}

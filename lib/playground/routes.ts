import "server-only";
import { demoApiResponse } from "@/lib/demo-api/answers";
import type { BodyWriter } from "@/lib/http/after-headers";
import { defineRoute, oneParam, restPath, type RouteModule } from "@/lib/http/edge";
import { json, jsonText } from "@/lib/http/respond";
import { releasingBody } from "@/lib/limits/buckets";
import { SSE_HEADERS, parseLastEventId } from "@/lib/live/sse";
import type { HeldJson, Playground } from "./service";
import { draftInputBody, draftUpdateBody, renderBody, reportBody, reportsQuery, revisionsQuery, type DemoReads } from "./stages";

// The playground's route files, each one `defineRoute`: the app's route files mount these on
// the app's playground, and tests mount them on a playground of their own. Each method is its
// stages (stages.ts: where a write may come from, the allowance it spends, its body and query)
// and then the playground's operation on what they read (service.ts).
//
// No CORS headers anywhere: agents are not browsers and need none, the editor and watch pages
// are same-origin, and a dashboard running in an opaque-origin frame has no business reading
// drafts. Nothing here logs a request URL: write-token URLs are capabilities.

export interface PlaygroundRoutes {
  /** /dashboards/playground/draft */
  create: RouteModule;
  /** /dashboards/playground/check */
  check: RouteModule;
  /** /dashboards/playground/draft/<token>: GET with a read id, POST with a write token */
  draft: RouteModule;
  /** /dashboards/playground/draft/<read_id>/events */
  events: RouteModule;
  /** /dashboards/playground/draft/<read_id>/revisions */
  revisions: RouteModule;
  /** /dashboards/playground/draft/<read_id>/reports */
  reports: RouteModule;
  /** /dashboards/playground/draft/<read_id>/render: the service draws a revision */
  render: RouteModule;
  /** /dashboards/playground/draft/<read_id>/render/<revision>-<key>.png */
  renderPicture: RouteModule;
  /** /dashboards/playground/api/<api path> */
  demoApi: RouteModule;
}

const token = (raw: Record<string, string | string[] | undefined>) => oneParam(raw, "token");

interface PlaygroundSource {
  playground: () => Promise<Playground>;
  /** The demo API's allowance; the demo API needs no storage, so it does not wait for the playground (or the database) to start. */
  demoReads: DemoReads;
  /**
   * The server's edge (lib/ops/requests.ts): an accepted event stream is written straight to its
   * Node response, and the framework's request ends with the headers. Without it (the tests'
   * adapters), or when it declines, the stream is the Response's body.
   */
  writeBodyAfterHeaders?: (request: Request, status: number, writer: BodyWriter) => boolean;
  log?: (line: string) => void;
}

/** A held answer as the Response's body: the reader's slot is given back with its last byte, or when it goes away. */
const heldAnswer = (held: HeldJson) => jsonText(releasingBody(held.bytes, held.release));

export function playgroundRoutes({ playground, demoReads, writeBodyAfterHeaders, log }: PlaygroundSource): PlaygroundRoutes {
  const stages = async () => (await playground()).stages;
  return {
    create: defineRoute({
      refuse: "POST a draft here to create it; read one at /dashboards/playground/draft/<read_id>.",
      log,
      methods: (on) => ({
        POST: on({
          origin: async (request) => (await stages()).draftWrite(request),
          limit: async (request) => (await stages()).spend("creates", request),
          body: draftInputBody,
          handle: async ({ origin, body }) => json(await (await playground()).create(body, origin), 201),
        }),
      }),
    }),
    check: defineRoute({
      refuse: "POST a draft body here (as to /draft) to check it without creating or publishing anything.",
      log,
      methods: (on) => ({
        POST: on({
          origin: async (request) => (await stages()).draftCheck(request),
          limit: async (request) => (await stages()).spend("checks", request),
          body: draftInputBody,
          handle: async ({ body }) => json((await playground()).check(body)),
        }),
      }),
    }),
    draft: defineRoute({
      params: token,
      refuse: "GET <read_id> reads a draft; POST <write_token> updates it. Nothing else is taken here.",
      log,
      methods: (on) => ({
        GET: on({
          limit: async (request, readId) => (await stages()).read(request, readId),
          handle: async ({ request, params }) => {
            const p = await playground();
            return heldAnswer(await p.read(params, p.stages.address(request)));
          },
        }),
        POST: on({
          origin: async (request) => (await stages()).draftWrite(request),
          limit: async (_, writeToken) => (await stages()).update(writeToken),
          body: draftUpdateBody,
          handle: async ({ params, origin, body }) => json(await (await playground()).update(params, body, origin)),
        }),
      }),
    }),
    events: defineRoute({
      params: token,
      refuse: "The event stream is read with GET.",
      log,
      methods: (on) => ({
        GET: on({
          limit: async (request, readId) => (await stages()).read(request, readId),
          handle: async ({ request, params }) => {
            const p = await playground();
            const watch = await p.events(params, p.stages.address(request), parseLastEventId(request.headers.get("last-event-id")));
            // A stream lives for as long as its watcher: held as the Response's body, it keeps the
            // framework's pipe and the whole request that awaits it (tens of KB) pending all that time.
            const handed = request.method === "GET" && (writeBodyAfterHeaders?.(request, 200, { begin: (response) => watch.writeTo(response), abandon: () => watch.close() }) ?? false);
            if (handed) return new Response(null, { status: 200, headers: SSE_HEADERS });
            if (request.signal.aborted) watch.close();
            else request.signal.addEventListener("abort", () => watch.close(), { once: true });
            return new Response(watch.stream, { status: 200, headers: SSE_HEADERS });
          },
        }),
      }),
    }),
    revisions: defineRoute({
      params: token,
      refuse: "Revisions are read with GET.",
      log,
      methods: (on) => ({
        GET: on({
          limit: async (request, readId) => (await stages()).read(request, readId),
          query: revisionsQuery,
          handle: async ({ request, params, query }) => {
            const p = await playground();
            return heldAnswer(await p.revisions(params, query, p.stages.address(request)));
          },
        }),
      }),
    }),
    reports: defineRoute({
      params: token,
      refuse: "POST a render report here (the watch page does); GET reads them.",
      log,
      methods: (on) => ({
        GET: on({
          limit: async (request, readId) => (await stages()).read(request, readId),
          query: reportsQuery,
          handle: async ({ params, query }) => json(await (await playground()).reports.list(params, query)),
        }),
        POST: on({
          origin: async (request) => (await stages()).reportWrite(request),
          limit: async (request, readId) => (await stages()).report(request, readId),
          body: reportBody,
          handle: async ({ request, params, body }) => {
            const p = await playground();
            return json(await p.reports.post(params, body, p.stages.address(request)), 201);
          },
        }),
      }),
    }),
    render: defineRoute({
      params: token,
      refuse: "POST here (a JSON body of revision, viewport, scenario, examples and params, or none) to have the service draw a revision; the answer names its picture.",
      log,
      methods: (on) => ({
        POST: on({
          origin: async (request) => (await stages()).render(request),
          guard: async (_, readId) => (await stages()).capability(readId),
          body: renderBody,
          handle: async ({ request, params, origin, body }) => {
            const p = await playground();
            return json(await p.renders.render(params, body, { origin, address: p.stages.address(request) }));
          },
        }),
      }),
    }),
    renderPicture: defineRoute({
      params: (raw) => ({ token: oneParam(raw, "token"), file: oneParam(raw, "file") }),
      refuse: "A render's picture is read with GET.",
      log,
      methods: (on) => ({
        GET: on({
          limit: async (request) => (await stages()).spend("reads", request),
          handle: async ({ request, params }) => {
            const p = await playground();
            const { png, etag } = await p.renders.picture(params.token, params.file, p.stages.address(request));
            const headers = { "content-type": "image/png", "cache-control": "public, max-age=31536000, immutable", etag, "content-length": String(png.byteLength) };
            if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
            return new Response(request.method === "HEAD" ? null : new Uint8Array(png), { headers });
          },
        }),
      }),
    }),
    demoApi: defineRoute({
      params: (raw) => restPath(raw),
      refuse: "The demo API is read-only: use GET.",
      log,
      methods: (on) => ({
        GET: on({
          limit: async (request) => demoReads.spend(request),
          handle: ({ url, params }) => {
            const { status, body } = demoApiResponse({ path: params, search: url.searchParams });
            return json(body, status, { "cache-control": "no-store" });
          },
        }),
      }),
    }),
  };
}

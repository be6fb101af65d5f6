import "server-only";
import { defineRoute, oneParam, restPath, type RouteModule } from "@/lib/http/edge";
import type { Playground } from "./routes";

// The playground's route files, each one `defineRoute`: the app's route files mount these on
// the app's playground, and tests mount them on a playground of their own.
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
  /** The demo API's answer; it needs no storage, so it does not wait for the playground (or the database) to start. */
  demoApi: (request: Request, apiPath: string) => Response;
  log?: (line: string) => void;
}

export function playgroundRoutes({ playground, demoApi, log }: PlaygroundSource): PlaygroundRoutes {
  return {
    create: defineRoute({
      refuse: "POST a draft here to create it; read one at /dashboards/playground/draft/<read_id>.",
      log,
      methods: (on) => ({ POST: on({ handle: async ({ request }) => (await playground()).create(request) }) }),
    }),
    check: defineRoute({
      refuse: "POST a draft body here (as to /draft) to check it without creating or publishing anything.",
      log,
      methods: (on) => ({ POST: on({ handle: async ({ request }) => (await playground()).check(request) }) }),
    }),
    draft: defineRoute({
      params: token,
      refuse: "GET <read_id> reads a draft; POST <write_token> updates it. Nothing else is taken here.",
      log,
      methods: (on) => ({
        GET: on({ handle: async ({ request, params }) => (await playground()).read(request, params) }),
        POST: on({ handle: async ({ request, params }) => (await playground()).update(request, params) }),
      }),
    }),
    events: defineRoute({
      params: token,
      refuse: "The event stream is read with GET.",
      log,
      methods: (on) => ({ GET: on({ handle: async ({ request, params }) => (await playground()).events(request, params) }) }),
    }),
    revisions: defineRoute({
      params: token,
      refuse: "Revisions are read with GET.",
      log,
      methods: (on) => ({ GET: on({ handle: async ({ request, params }) => (await playground()).revisions(request, params) }) }),
    }),
    reports: defineRoute({
      params: token,
      refuse: "POST a render report here (the watch page does); GET reads them.",
      log,
      methods: (on) => ({
        GET: on({ handle: async ({ request, params }) => (await playground()).reports.list(request, params) }),
        POST: on({ handle: async ({ request, params }) => (await playground()).reports.post(request, params) }),
      }),
    }),
    render: defineRoute({
      params: token,
      refuse: "POST here (a JSON body of revision, viewport, scenario, examples and params, or none) to have the service draw a revision; the answer names its picture.",
      log,
      methods: (on) => ({ POST: on({ handle: async ({ request, params }) => (await playground()).renders.render(request, params) }) }),
    }),
    renderPicture: defineRoute({
      params: (raw) => ({ token: oneParam(raw, "token"), file: oneParam(raw, "file") }),
      refuse: "A render's picture is read with GET.",
      log,
      methods: (on) => ({ GET: on({ handle: async ({ request, params }) => (await playground()).renders.picture(request, params.token, params.file) }) }),
    }),
    demoApi: defineRoute({
      params: (raw) => restPath(raw),
      refuse: "The demo API is read-only: use GET.",
      log,
      methods: (on) => ({ GET: on({ handle: ({ request, params }) => demoApi(request, params) }) }),
    }),
  };
}

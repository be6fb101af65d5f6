import "server-only";
import type { RouteModule } from "@/lib/http/edge";
import { playgroundOperations, type PlaygroundRouteKey } from "./operations";
import { routesOf, type OperationContext } from "./operations/operation";
import type { Playground } from "./service";
import type { DemoReads } from "./stages";

// The playground's route files, each one `defineRoute`: the app's route files mount these on
// the app's playground, and tests mount them on a playground of their own. They are derived from
// the playground's operations (operations/, one file each): each operation is one method of one
// route, its stages (stages.ts: where a write may come from, the allowance it spends, its body
// and query) and then the playground's operation on what they read (service.ts).
//
// No CORS headers anywhere: agents are not browsers and need none, the editor and watch pages
// are same-origin, and a dashboard running in an opaque-origin frame has no business reading
// drafts. Nothing here logs a request URL: write-token URLs are capabilities.

/**
 * create: /draft; check: /check; draft: /draft/<token> (GET with a read id, POST with a write
 * token); events, revisions, reports, render: /draft/<read_id>/…; renderPicture:
 * /draft/<read_id>/render/<revision>-<key>.png; demoApi: /api/<api path>.
 */
export type PlaygroundRoutes = Record<PlaygroundRouteKey, RouteModule>;

interface PlaygroundSource extends Omit<OperationContext, "stages" | "demoReads"> {
  playground: () => Promise<Playground>;
  /** The demo API's allowance; the demo API needs no storage, so it does not wait for the playground (or the database) to start. */
  demoReads: DemoReads;
  log?: (line: string) => void;
}

export function playgroundRoutes({ playground, demoReads, writeBodyAfterHeaders, log }: PlaygroundSource): PlaygroundRoutes {
  const stages = async () => (await playground()).stages;
  return routesOf(playgroundOperations, { playground, stages, demoReads, writeBodyAfterHeaders }, log);
}

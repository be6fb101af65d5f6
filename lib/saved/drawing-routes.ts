import "server-only";
import { userForRequest, type SessionUser } from "@/lib/auth/session";
import type { DraftReads } from "@/lib/check/reads";
import { ApiError } from "@/lib/contract/errors";
import type { Db } from "@/lib/db";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import type { Drawings } from "./drawings";
import { drawingQuery } from "./params";
import { loadDashboard } from "./store";
import type { SavedReads } from "./trust";

// The safe view's two addresses (lib/saved/drawings.ts):
//   GET /~/<handle>/<slug>/drawn?viewport=&revision=     the signed-in viewer's drawing, as JSON
//   GET /dashboards/drawn/<token>/api/<path>              a drawing's reads, for the service's renderer

export interface DrawingRoutes {
  drawn: RouteModule;
  reads: RouteModule;
}

interface DrawingRoutesDeps {
  db: () => Promise<Db>;
  drawings: Drawings;
  savedReads: SavedReads;
  trustedProxy: readonly string[];
}

/** As /drawn asks: signed in, anyone who may open the dashboard, each on their own data. */
export const signedInViewer = (db: () => Promise<Db>) => async (request: Request) => {
  const user = await userForRequest(await db(), request);
  if (!user) throw new ApiError("unauthorized", "Sign in to see saved dashboards.");
  return user;
};

/** The viewer's drawing of a saved dashboard's revision, as /drawn and /drawn.png answer it. */
export async function viewerDrawing(
  deps: Pick<DrawingRoutesDeps, "db" | "drawings" | "savedReads">,
  who: SessionUser,
  at: { handle: string; slug: string },
  { viewport, revision, params }: ReturnType<typeof drawingQuery>,
  client: string,
) {
  const dashboard = await loadDashboard(await deps.db(), at.handle, at.slug, revision);
  if (!dashboard) throw new ApiError("not_found", "No such dashboard or revision.");
  // The viewer's own code has nothing to be kept from them: it runs in their browser.
  const reads: DraftReads = deps.savedReads(dashboard.owner.id, dashboard.slug, dashboard.shown.revision, dashboard.shown.html);
  const drawn = { ownerId: dashboard.owner.id, handle: dashboard.handle, slug: dashboard.slug, revision: dashboard.shown.revision, title: dashboard.title, html: dashboard.shown.html, params };
  return { drawn, drawing: await deps.drawings.draw(who, drawn, reads, viewport, client) };
}

export function drawingRoutes(deps: DrawingRoutesDeps): DrawingRoutes {
  const trusted = addressMatcher(deps.trustedProxy);
  return {
    drawn: defineRoute({
      params: (raw) => ({ handle: oneParam(raw, "handle"), slug: oneParam(raw, "slug") }),
      refuse: "A drawing is read with GET.",
      methods: (on) => ({
        GET: on({
          guard: signedInViewer(deps.db),
          query: drawingQuery,
          handle: async ({ request, who, params, query }) => {
            const { drawing } = await viewerDrawing(deps, who, params, query, clientAddress(request, trusted));
            return json(drawing, 200, { "cache-control": "private, no-store" });
          },
        }),
      }),
    }),

    reads: defineRoute({
      params: (raw) => ({ token: oneParam(raw, "token"), path: [raw.path ?? []].flat().map(encodeURIComponent).join("/") }),
      refuse: "A drawing's reads are GET requests of the API, as the dashboard makes them.",
      methods: (on) => ({
        GET: on({
          handle: ({ request, params: { token, path } }) => deps.drawings.read(request, token, `/api${path ? `/${path}` : ""}${new URL(request.url).search}`),
        }),
      }),
    }),
  };
}

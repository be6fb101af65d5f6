import "server-only";
import { userForRequest } from "@/lib/auth/session";
import { ApiError } from "@/lib/contract/errors";
import type { Db } from "@/lib/db";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { revisionParam } from "./params";
import { loadDashboard } from "./store";

/**
 * GET /~/<handle>/<slug>/source[?revision=N]: a saved dashboard's HTML as plain text, for
 * "view source" and restores. Signed-in people only, like the dashboard itself.
 */
export function sourceRoute(db: () => Promise<Db>): RouteModule {
  return defineRoute({
    // Decoded once by the router, and not again.
    params: (raw) => ({ handle: oneParam(raw, "handle"), slug: oneParam(raw, "slug") }),
    refuse: "A dashboard's source is read with GET; save with POST /~/<handle>/<slug>.",
    methods: (on) => ({
      GET: on({
        guard: async (request) => {
          const user = await userForRequest(await db(), request);
          if (!user) throw new ApiError("unauthorized", "Sign in to read saved dashboards.");
          return user;
        },
        query: (search) => revisionParam(search.get("revision")),
        handle: async ({ params: { handle, slug }, query: revision }) => {
          const dashboard = await loadDashboard(await db(), handle, slug, revision);
          if (!dashboard) throw new ApiError("not_found", "No such dashboard or revision.");
          return new Response(dashboard.shown.html, {
            headers: {
              // Text, never rendered: the HTML is someone's dashboard, and runs only inside the frame.
              "content-type": "text/plain; charset=utf-8",
              "x-content-type-options": "nosniff",
              "content-security-policy": "sandbox; default-src 'none'",
              "cache-control": "private, no-store",
              "x-revision": String(dashboard.shown.revision),
            },
          });
        },
      }),
    }),
  });
}

import "server-only";
import { userForRequest } from "@/lib/auth/session";
import { ApiError } from "@/lib/contract/errors";
import type { Db } from "@/lib/db";
import { drawableRevision } from "@/lib/drafts/drafts";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { drawingQuery } from "@/lib/saved/params";
import type { Drawings } from "@/lib/saved/drawings";
import { htmlTitle } from "@/lib/saved/slug";
import type { Playground } from "./service";

// GET /dashboards/playground/draft/<read_id>/drawn?viewport=&revision= — the safe view of a live
// draft's watch link (lib/saved/drawings.ts): the draft drawn by the service on the signed-in
// viewer's own data, as an inert document, for a watcher who did not write it. The read id is
// the watch link's own: whoever may watch may have it drawn, on their own data only.

interface DraftDrawingDeps {
  db: () => Promise<Db>;
  playground: () => Promise<Playground>;
  drawings: Drawings;
  trustedProxy: readonly string[];
}

export function draftDrawingRoute(deps: DraftDrawingDeps): RouteModule {
  const trusted = addressMatcher(deps.trustedProxy);
  return defineRoute({
    params: (raw) => ({ id: oneParam(raw, "token") }),
    refuse: "A drawing is read with GET.",
    methods: (on) => ({
      GET: on({
        guard: async (request) => {
          const user = await userForRequest(await deps.db(), request);
          // Signed out, a live draft runs on the watcher's own 401s: there is nothing to draw.
          if (!user) throw new ApiError("unauthorized", "Sign in to have a live draft drawn on your data.");
          return user;
        },
        query: drawingQuery,
        handle: async ({ request, who, params: { id }, query: { viewport, revision, params: pageParams } }) => {
          const draft = await drawableRevision((await deps.playground()).context, id, revision ?? null);
          const drawing = await deps.drawings.draw(
            who,
            { draftId: id, revision: draft.revision, title: draft.dash ?? htmlTitle(draft.html) ?? "untitled draft", html: draft.html, params: pageParams },
            draft.reads,
            viewport,
            clientAddress(request, trusted),
          );
          return json(drawing, 200, { "cache-control": "private, no-store" });
        },
      }),
    }),
  });
}

import "server-only";
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import type { RenderViewport } from "@/lib/contract/renders";
import type { Db } from "@/lib/db";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { RenderTimeout, RendererBusy, type Renderer } from "@/lib/renderer";
import type { Drawing, Drawings } from "./drawings";
import { signedInViewer, viewerDrawing } from "./drawing-routes";
import { drawingQuery } from "./params";
import type { SavedReads } from "./trust";

// The safe view's picture: GET /~/<handle>/<slug>/drawn.png?viewport=&revision= answers the
// viewer's drawing (lib/saved/drawings.ts, remembered as /drawn remembers it) as a PNG at its
// viewport's width, made by the renderer from the inert document itself (Renderer.picture: no
// script runs, no request leaves), for "Download picture". Asked as /drawn is, by the same people,
// with the same answers; it is the viewer's own data, so it is never cached outside their browser.
//
// A picture is remembered beside its drawing: per viewer, dashboard, revision and viewport, with a
// digest of the document it shows, so a drawing served again unchanged is not pictured again and
// a drawing made again is.

/** Pictures remembered per process, and their bytes together (a desktop picture is tens to hundreds of kilobytes). */
const PICTURES_MAX = 100;
const PICTURE_BYTES_MAX = 64 * 1024 * 1024;

export interface DrawnPictures {
  /** The PNG of `drawing`, which was drawn for `viewerId` of `dashboard`. */
  of(viewerId: number, dashboard: { ownerId: number; slug: string; revision: number }, drawing: Drawing, client: string): Promise<Buffer>;
}

export function createDrawnPictures(deps: { renderer: () => Renderer | null }): DrawnPictures {
  const remembered = new Map<string, { digest: string; png: Buffer }>();
  const inFlight = new Map<string, Promise<Buffer>>();
  let bytes = 0;

  const forget = (key: string) => {
    const kept = remembered.get(key);
    if (!kept) return;
    bytes -= kept.png.byteLength;
    remembered.delete(key);
  };

  async function picture(drawing: Drawing, client: string): Promise<Buffer> {
    const renderer = deps.renderer();
    if (!renderer) throw new ApiError("renderer_not_configured", "This deployment has no browser to draw pictures with: its operator installs Chromium (Debian: chromium) or sets RENDERER_CHROMIUM.");
    try {
      return await renderer.picture({ html: drawing.html, viewport: drawing.viewport, client });
    } catch (err) {
      if (err instanceof RendererBusy) {
        const why = err.reason === "share" ? "Your address already has its share of the drawings under way" : "Every drawing slot is taken";
        throw new ApiError("renderer_busy", `${why}; retry in ${err.retryAfterSeconds} s.`, { "retry-after": String(err.retryAfterSeconds) });
      }
      if (err instanceof RenderTimeout) throw new ApiError("render_timed_out", "The picture of the drawing was not made in time; try again, or take a screenshot of the drawn view.");
      throw err;
    }
  }

  return {
    async of(viewerId, dashboard, drawing, client) {
      const key = `${viewerId}|${dashboard.ownerId}|${dashboard.slug}|${dashboard.revision}|${drawing.viewport}`;
      const digest = createHash("sha256").update(drawing.html).digest("base64url");
      const kept = remembered.get(key);
      if (kept?.digest === digest) {
        // Most recently used last, so the bound forgets the pictures nobody downloads.
        remembered.delete(key);
        remembered.set(key, kept);
        return kept.png;
      }
      const flight = `${key}|${digest}`;
      const running = inFlight.get(flight);
      if (running) return running;
      const made = picture(drawing, client)
        .then((png) => {
          forget(key);
          remembered.set(key, { digest, png });
          bytes += png.byteLength;
          for (const oldest of remembered.keys()) {
            if (remembered.size <= PICTURES_MAX && bytes <= PICTURE_BYTES_MAX) break;
            forget(oldest);
          }
          return png;
        })
        .finally(() => inFlight.delete(flight));
      inFlight.set(flight, made);
      return made;
    },
  };
}

/** A name for the file that says what it is: whose dashboard, which revision, which size. */
function fileName(handle: string, slug: string, revision: number, viewport: RenderViewport): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "").slice(0, 60) || "dashboard";
  return `${safe(handle)}-${safe(slug)}-r${revision}-${viewport}.png`;
}

interface DrawnPictureRouteDeps {
  db: () => Promise<Db>;
  drawings: Drawings;
  pictures: DrawnPictures;
  savedReads: SavedReads;
  trustedProxy: readonly string[];
}

/** GET /~/<handle>/<slug>/drawn.png?viewport=desktop|phone&revision= */
export function drawnPictureRoute(deps: DrawnPictureRouteDeps): RouteModule {
  const trusted = addressMatcher(deps.trustedProxy);
  return defineRoute({
    params: (raw) => ({ handle: oneParam(raw, "handle"), slug: oneParam(raw, "slug") }),
    refuse: "A drawing's picture is read with GET.",
    methods: (on) => ({
      GET: on({
        guard: signedInViewer(deps.db),
        query: drawingQuery,
        handle: async ({ request, who, params, query }) => {
          const client = clientAddress(request, trusted);
          const { drawn, drawing } = await viewerDrawing(deps, who, params, query, client);
          const png = await deps.pictures.of(who.id, drawn, drawing, client);
          return new Response(new Uint8Array(png), {
            headers: {
              "content-type": "image/png",
              "content-length": String(png.byteLength),
              "content-disposition": `attachment; filename="${fileName(drawn.handle, drawn.slug, drawing.revision, drawing.viewport)}"`,
              // The viewer's own data: kept by no cache but their browser's download, and drawn
              // into no other site's page (its cookie is not sent there either: SameSite=Lax).
              "cache-control": "private, no-store",
              "cross-origin-resource-policy": "same-origin",
              "last-modified": new Date(drawing.drawnAt).toUTCString(),
            },
          });
        },
      }),
    }),
  });
}

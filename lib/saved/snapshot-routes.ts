import "server-only";
import type { z } from "zod";
import { readCookie } from "@/lib/auth/cookies";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { SESSION_COOKIE, userForRequest, type SessionUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/contract/errors";
import type { Db } from "@/lib/db";
import type { Sealer } from "@/lib/crypto/secrets";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { snapshotAction } from "./actions";
import type { Drawing, Drawings } from "./drawings";
import type { DrawnPictures } from "./pictures";
import { humanGuard, type HumanDeps } from "./human";
import { accountBody, answer } from "./routes";
import { snapshotPage } from "./snapshot-page";
import { openSnapshot, revokeSnapshot, shareSnapshot, snapshotPath, snapshotPicture, storeSnapshot, type SnapshotOpened } from "./snapshots";
import { loadDashboard } from "./store";
import type { SavedReads } from "./trust";

// Snapshots' two addresses (lib/saved/snapshots.ts):
//   POST /account/snapshots   freeze one of one's own dashboards, share it, revoke it: a human
//                             action (human.ts), as saving is; no token, agent or MCP call can
//   GET  /snapshots/<token>   the snapshot: a page for a browser (Accept: text/html), else JSON;
//                             410 once ended, 404 to whoever may not open it
//   GET  /snapshots/<token>/picture.png   its picture, to the same people, on the same terms

export interface SnapshotRoutes {
  account: RouteModule;
  show: RouteModule;
  picture: RouteModule;
}

interface SnapshotRoutesDeps {
  human: () => Promise<HumanDeps>;
  db: () => Promise<Db>;
  sealer: () => Sealer;
  drawings: Drawings;
  /** The drawing's picture (lib/saved/pictures.ts), kept with the snapshot. */
  pictures: DrawnPictures;
  savedReads: SavedReads;
  trustedProxy: readonly string[];
  /** The origin people reach this site at, for the address the owner copies. */
  publicOrigin?: string;
  now?: () => number;
}

const number = (f: URLSearchParams, name: string) => {
  const v = f.get(name);
  return v === null || v === "" ? undefined : Number(v);
};
const snapshotBody = accountBody(
  snapshotAction,
  (f) => ({
    op: f.get("op"),
    path: f.get("path") ?? undefined,
    revision: number(f, "revision"),
    viewport: f.get("viewport") || undefined,
    visibility: f.get("visibility") || undefined,
    expiresInDays: number(f, "expiresInDays"),
    id: f.get("id") ?? undefined,
  }),
  "/account#snapshots",
);

type FreezeAction = Extract<z.output<typeof snapshotAction>, { op: "create" }>;

const wantsPage = (request: Request) => /(?:^|,)\s*text\/html\b/i.test(request.headers.get("accept") ?? "");

/**
 * Freezing one of the person's own dashboards: drawn for them as a viewer, pictured, and stored as
 * a snapshot with the visibility and lifetime `action` asks for.
 */
function snapshotFreezer(deps: SnapshotRoutesDeps, now: () => number) {
  const trusted = addressMatcher(deps.trustedProxy);

  async function freeze(who: SessionUser, path: string, revision: number | undefined, viewport: "desktop" | "phone", request: Request) {
    const [, , handle = "", slug = ""] = path.split("/");
    if (handle !== who.handle) throw new ApiError("forbidden", `You can freeze only your own dashboards, in /~/${who.handle}.`);
    const db = await deps.db();
    const dashboard = await loadDashboard(db, handle, slug, revision);
    if (!dashboard || dashboard.owner.id !== who.id) throw new ApiError("not_found", "You have no saved dashboard or revision at that address.");
    // Drawn as anyone else's dashboard is for them: the service's browser, the viewer's own
    // answers on the paths the code names, and nothing else reachable.
    const reads = deps.savedReads(who.id, dashboard.slug, dashboard.shown.revision, dashboard.shown.html);
    const client = clientAddress(request, trusted);
    const drawing = await deps.drawings.draw(
      who,
      { ownerId: who.id, handle, slug: dashboard.slug, revision: dashboard.shown.revision, title: dashboard.title, html: dashboard.shown.html },
      reads,
      viewport,
      client,
    );
    return { db, dashboard, drawing, png: await pictureOf(who.id, { ownerId: who.id, slug: dashboard.slug, revision: dashboard.shown.revision }, drawing, client) };
  }

  /**
   * The drawing's picture, made from the inert document (no script runs). The document is the
   * snapshot; when the picture cannot be made now (every slot taken, too slow), the snapshot is
   * kept without one and says so, rather than not at all.
   */
  async function pictureOf(viewerId: number, dashboard: { ownerId: number; slug: string; revision: number }, drawing: Drawing, client: string): Promise<Buffer | null> {
    try {
      return await deps.pictures.of(viewerId, dashboard, drawing, client);
    } catch (err) {
      if (err instanceof ApiError) return null;
      throw err;
    }
  }

  return async (who: SessionUser, action: FreezeAction, request: Request) => {
    const { db, dashboard, drawing, png } = await freeze(who, action.path, action.revision, action.viewport, request);
    return storeSnapshot(
      db,
      {
        ownerId: who.id,
        slug: dashboard.slug,
        revision: drawing.revision,
        title: dashboard.title,
        viewport: drawing.viewport,
        visibility: action.visibility,
        html: drawing.html,
        height: drawing.height,
        png,
        drawnAt: Date.parse(drawing.drawnAt),
        expiresInDays: action.expiresInDays,
      },
      now(),
    );
  };
}

export function snapshotRoutes(deps: SnapshotRoutesDeps): SnapshotRoutes {
  const now = deps.now ?? (() => Date.now());
  const freezeSnapshot = snapshotFreezer(deps, now);

  return {
    account: defineRoute({
      refuse: "Freeze, share and revoke snapshots with POST; /account lists yours.",
      methods: (on) => ({
        POST: on({
          guard: async (request) => humanGuard(request, await deps.human(), "freeze, share or revoke a snapshot"),
          body: snapshotBody,
          handle: async ({ request, who, body }) => {
            const { action } = body;
            if (action.op === "create") {
              const snapshot = await freezeSnapshot(who, action, request);
              if (body.returnTo !== null) return answer({ ...body, returnTo: snapshot.path }, null);
              return json({ snapshot }, 201, { location: snapshot.path });
            }
            const db = await deps.db();
            if (action.op === "share") return answer(body, { snapshot: await shareSnapshot(db, who.id, action.id, action.visibility, now()) });
            return answer(body, { snapshots: await revokeSnapshot(db, who.id, action.id, now()) });
          },
        }),
      }),
    }),

    show: defineRoute({
      params: (raw) => ({ token: oneParam(raw, "token") }),
      refuse: "A snapshot is opened with GET; its owner shares and revokes it with POST /account/snapshots.",
      methods: (on) => ({
        GET: on({
          handle: async ({ request, params: { token } }) => {
            const db = await deps.db();
            const viewer = await userForRequest(db, request);
            const opened = await openSnapshot(db, token, viewer, now());
            const path = snapshotPath(token);
            if (wantsPage(request)) {
              const session = readCookie(request, SESSION_COOKIE);
              return snapshotPage(opened, path, {
                signedIn: viewer !== null,
                origin: deps.publicOrigin ?? new URL(request.url).origin,
                csrf: viewer && session && opened.kind === "shown" && opened.own ? csrfTokenFor(deps.sealer(), session) : null,
              });
            }
            if (opened.kind !== "shown") refuse(opened);
            const { owner, ...snapshot } = opened.snapshot;
            return json({ snapshot: { ...snapshot, owner: { handle: owner.handle, name: owner.name } } }, 200, { "cache-control": "private, no-store", vary: "accept, cookie" });
          },
        }),
      }),
    }),

    picture: defineRoute({
      params: (raw) => ({ token: oneParam(raw, "token") }),
      refuse: "A snapshot's picture is read with GET.",
      methods: (on) => ({
        GET: on({
          handle: async ({ request, params: { token } }) => {
            const db = await deps.db();
            const found = await snapshotPicture(db, token, await userForRequest(db, request), now());
            if (found.kind === "shown") throw new ApiError("not_found", "This snapshot was kept without a picture; its page shows the drawing.");
            if (found.kind !== "picture") refuse(found);
            const { png, snapshot } = found;
            return new Response(new Uint8Array(png), {
              headers: {
                "content-type": "image/png",
                "content-length": String(png.byteLength),
                "content-disposition": `attachment; filename="${fileName(snapshot.owner.handle, snapshot.dashboard.split("/").pop() ?? "", snapshot.revision, snapshot.viewport)}"`,
                "cache-control": "private, no-store",
                // Only this site's pages show it: another site's page cannot embed it, address or not.
                "cross-origin-resource-policy": "same-origin",
                "last-modified": new Date(snapshot.drawnAt).toUTCString(),
              },
            });
          },
        }),
      }),
    }),
  };
}

/** The envelope for a snapshot that is not there to see: never was (or not for them), or ended. */
function refuse(opened: Exclude<SnapshotOpened, { kind: "shown" }>): never {
  if (opened.kind === "hidden") throw new ApiError("not_found", "There is no snapshot at this address that you may open.");
  throw new ApiError("snapshot_gone", opened.why === "revoked" ? "Its owner revoked this snapshot; what it showed is deleted." : `This snapshot expired at ${opened.summary.expiresAt}; what it showed is deleted.`);
}

/** A name for the file that says what it is: whose dashboard, which revision, which size, a snapshot. */
function fileName(handle: string, slug: string, revision: number, viewport: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "").slice(0, 60) || "dashboard";
  return `${safe(handle)}-${safe(slug)}-r${revision}-${viewport}-snapshot.png`;
}


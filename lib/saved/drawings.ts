import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { SessionUser } from "@/lib/auth/session";
import type { DraftReads } from "@/lib/check/reads";
import { drawingGrant, type LiveGrant } from "@/lib/consent/live";
import { ApiError } from "@/lib/contract/errors";
import { RENDER_VIEWPORTS, type RenderViewport } from "@/lib/contract/renders";
import { paramsKey, type DashboardParams } from "@/lib/frame/params";
import { FRAME_PATH } from "@/lib/frame/bootstrap";
import { decideLink, LinkLedger } from "@/lib/frame/links";
import { FRAME_HEIGHT_MAX, checkBrokerRequest } from "@/lib/frame/protocol";
import { CAPTURE_SCRIPT, InertDocumentError, inertDocument } from "@/lib/inert";
import { JSON_CONTENT_TYPE, json, stringify } from "@/lib/http/respond";
import { RenderTimeout, RendererBusy, type Renderer } from "@/lib/renderer";

// The safe view: someone else's code (a saved dashboard, or a live playground draft the viewer did
// not write) drawn by the service, on the viewer's own data,
// and handed to the viewer's browser as an inert document. The dashboard's code runs only in the
// service's contained browser (lib/renderer: nothing it does reaches anything but this server),
// where its frame's reads go to this drawing's reads: the viewer's own /api answers, on the paths
// the code names (drawingGrant), GET only, for as long as the render lasts. What it drew is read
// out of the frame (CAPTURE_SCRIPT, untrusted: the dashboard ran there) and rewritten from
// allow-lists into a document with no script and no URL but data: images and links to URLs its
// reads answered (lib/inert, lib/frame/links.ts), which the page shows in a frame without
// allow-scripts. So the code never runs in the viewer's browser,
// and what it read has no way out: no one's trust is needed.
//
// A drawing is remembered per viewer, dashboard (or draft), revision and viewport with the reads it
// made and a digest of their answers. Asked again, those reads are made again (cheap: the API
// answers them from its caches) and the drawing is served as it is while their answers are the
// same; only a new revision or new answers draw again. Drawings of one key in flight at once share
// one render, and one viewer has at most one drawing of one dashboard or draft under way: a draft
// whose revisions come faster than they are drawn is asked to come back (renderer_busy), rather
// than each revision taking a slot of the pool.

/** How long a drawing's reads answer: the render's own time limit, with room for the queue. */
const GRANT_MS = 120_000;
/** Reads one drawing may make; a dashboard that reads more is drawn with what it got. */
const READS_MAX = 200;
/** Drawings remembered per process (each a few hundred kilobytes at most). */
const REMEMBERED_MAX = 200;
/** Of the dashboard's read answers, only a digest is kept. */
const digest = (status: number, body: string) => createHash("sha256").update(`${status}\n${body}`).digest("base64url");

interface DrawnCode {
  revision: number;
  title: string;
  html: string;
  /** The page's `?p.*` values: the dashboard reads them as DASHBOARD_PARAMS, so they are part of what is drawn. */
  params?: DashboardParams;
}

/** A saved dashboard's revision. */
interface DrawnDashboard extends DrawnCode {
  ownerId: number;
  handle: string;
  slug: string;
}

/** A live playground draft's revision: its read id names it, for anyone who has the watch link. */
interface DrawnDraft extends DrawnCode {
  draftId: string;
}

type Drawn = DrawnDashboard | DrawnDraft;

export interface Drawing {
  /** The inert document, whole. */
  html: string;
  /** ISO 8601: when it was drawn. */
  drawnAt: string;
  /** The height it was drawn at, in CSS pixels: the frame showing it can learn it no other way. */
  height: number;
  revision: number;
  viewport: RenderViewport;
  /** Served from what was drawn before, the viewer's answers unchanged since. */
  remembered: boolean;
  /** Each read the API answered, with its status: the page tells the viewer what their account lacks. */
  answers: DrawingAnswer[];
}

interface DrawingAnswer {
  /** Relative to the API base, with the query, as the dashboard asked for it. */
  path: string;
  status: number;
}

interface Pending {
  viewer: SessionUser;
  dashboard: Drawn;
  grant: LiveGrant;
  until: number;
  /** path with query → its answer's status and digest, in the order first read. */
  reads: Map<string, Read>;
  /** The URLs the answers named: the only links the drawing keeps. */
  links: LinkLedger;
}

interface Read {
  pathname: string;
  status: number;
  digest: string;
}

interface Remembered {
  html: string;
  drawnAt: number;
  height: number;
  reads: [string, Read][];
}

interface DrawingsDeps {
  renderer: () => Renderer | null;
  /** One GET of /api's `path` (relative to /api) as `user`: the permissions and answers a browser gets. */
  readApi: (user: SessionUser, path: string, search: URLSearchParams) => Promise<{ status: number; body: unknown }>;
  /** The origin the API requests are made at (the server's own). */
  origin: () => string;
  now?: () => number;
  log?: (line: string) => void;
}

export interface Drawings {
  /** Draws (or serves the remembered drawing of) `dashboard` for `viewer`. */
  draw(viewer: SessionUser, dashboard: Drawn, reads: DraftReads, viewport: RenderViewport, client: string): Promise<Drawing>;
  /** The render page's dashboard, while its drawing is under way. */
  pageOf(token: string): { html: string; title: string; params: DashboardParams } | null;
  /** GET /dashboards/drawn/<token>/api/<path>: one of the drawing's reads. */
  read(request: Request, token: string, path: string): Promise<Response>;
}

const answersOf = (reads: Iterable<[string, Read]>): DrawingAnswer[] => [...reads].map(([path, { status }]) => ({ path, status }));

/** What is drawn, whatever its revision: a saved dashboard by its owner's id, a draft by its read id. */
const subjectOf = (d: Drawn) => ("draftId" in d ? `draft:${d.draftId}` : `${d.ownerId}|${d.slug}`);
/** One viewer's drawings of one dashboard or draft: at most one of them is under way at a time. */
const laneOf = (viewer: SessionUser, d: Drawn) => `${viewer.id}|${subjectOf(d)}`;
const keyOf = (viewer: SessionUser, d: Drawn, viewport: RenderViewport) => `${laneOf(viewer, d)}|${d.revision}|${viewport}|${paramsKey(d.params)}`;
/** How soon a viewer whose drawing of the same dashboard is under way is asked to come back. */
const LANE_RETRY_SECONDS = 2;

export function createDrawings(deps: DrawingsDeps): Drawings {
  const now = deps.now ?? (() => Date.now());
  const pending = new Map<string, Pending>();
  const remembered = new Map<string, Remembered>();
  const inFlight = new Map<string, Promise<Drawing>>();
  /** lane → the key of the drawing under way in it. */
  const lanes = new Map<string, string>();

  /** A read the dashboard made (a path under /api with its query), as the API answers it: status and JSON text. */
  const readApi = async (viewer: SessionUser, pathname: string, pathWithQuery: string) => {
    const read = await deps.readApi(viewer, pathname, new URL(`/api${pathWithQuery}`, deps.origin()).searchParams);
    return { status: read.status, text: stringify(read.body) };
  };

  /** Whether every read a drawing made answers as it did then. */
  async function unchanged(viewer: SessionUser, kept: Remembered): Promise<boolean> {
    for (const [path, { pathname, digest: was }] of kept.reads) {
      const res = await readApi(viewer, pathname, path);
      if (digest(res.status, res.text) !== was) return false;
    }
    return true;
  }

  async function render(viewer: SessionUser, dashboard: Drawn, reads: DraftReads, viewport: RenderViewport, client: string): Promise<Drawing> {
    const renderer = deps.renderer();
    if (!renderer) {
      throw new ApiError("renderer_not_configured", "This deployment has no browser to draw dashboards with: its operator installs Chromium (Debian: chromium) or sets RENDERER_CHROMIUM. Make it interactive to run it in your own browser instead.");
    }
    const token = randomBytes(24).toString("base64url");
    const entry: Pending = { viewer, dashboard, grant: drawingGrant(reads), until: now() + GRANT_MS, reads: new Map(), links: new LinkLedger() };
    pending.set(token, entry);
    try {
      const out = await renderer.render({
        path: `/dashboards/drawn/${token}`,
        viewport: RENDER_VIEWPORTS[viewport],
        ready: `document.documentElement.dataset.rendered === "true"`,
        result: "window.__dashboardRender ?? null",
        picture: '[data-testid="dashboard-frame"]',
        frameResult: { frame: '[data-testid="dashboard-frame"]', expression: CAPTURE_SCRIPT },
      }, client);
      const origin = deps.origin();
      const link = (href: string) => {
        const d = decideLink(href, entry.links, origin, FRAME_PATH);
        return d.ok ? (d.kind === "site" ? d.path : d.url) : null;
      };
      const html = inertDocument(out.frameResult, { title: dashboard.title, link });
      const drawnAt = now();
      const drawnHeight = Number((out.result as { height?: unknown } | null)?.height);
      const height = Number.isFinite(drawnHeight) ? Math.max(0, Math.min(FRAME_HEIGHT_MAX, Math.round(drawnHeight))) : 0;
      remembered.set(keyOf(viewer, dashboard, viewport), { html, drawnAt, height, reads: [...entry.reads] });
      if (remembered.size > REMEMBERED_MAX) remembered.delete(remembered.keys().next().value as string);
      return { html, drawnAt: new Date(drawnAt).toISOString(), height, revision: dashboard.revision, viewport, remembered: false, answers: answersOf(entry.reads) };
    } catch (err) {
      if (err instanceof RendererBusy) {
        const why = err.reason === "share" ? "Your address already has its share of the drawings under way" : "Every drawing slot is taken";
        throw new ApiError("renderer_busy", `${why}; retry in ${err.retryAfterSeconds} s.`, { "retry-after": String(err.retryAfterSeconds) });
      }
      if (err instanceof RenderTimeout) throw new ApiError("render_timed_out", "The dashboard did not finish drawing in time. Make it interactive to run it in your own browser instead.");
      if (err instanceof InertDocumentError) throw new ApiError("drawing_failed", `What the dashboard drew could not be shown safely: ${err.message}. Make it interactive to run it in your own browser instead.`);
      throw err;
    } finally {
      pending.delete(token);
    }
  }

  return {
    async draw(viewer, dashboard, reads, viewport, client) {
      const key = keyOf(viewer, dashboard, viewport);
      const kept = remembered.get(key);
      if (kept && (await unchanged(viewer, kept))) {
        // Most recently used last, so the bound forgets the drawings nobody opens.
        remembered.delete(key);
        remembered.set(key, kept);
        return { html: kept.html, drawnAt: new Date(kept.drawnAt).toISOString(), height: kept.height, revision: dashboard.revision, viewport, remembered: true, answers: answersOf(kept.reads) };
      }
      const running = inFlight.get(key);
      if (running) return running;
      const lane = laneOf(viewer, dashboard);
      if (lanes.has(lane)) {
        throw new ApiError("renderer_busy", `A drawing of this for you is already under way (another revision or width); retry in ${LANE_RETRY_SECONDS} s.`, {
          "retry-after": String(LANE_RETRY_SECONDS),
        });
      }
      const drawing = render(viewer, dashboard, reads, viewport, client).finally(() => {
        inFlight.delete(key);
        lanes.delete(lane);
      });
      inFlight.set(key, drawing);
      lanes.set(lane, key);
      return drawing;
    },

    pageOf(token) {
      const entry = pending.get(token);
      if (!entry || entry.until <= now()) return null;
      // A plain copy: the page hands it to a client component, which takes no null-prototype object.
      return { html: entry.dashboard.html, title: entry.dashboard.title, params: { ...entry.dashboard.params } };
    },

    async read(request, token, path) {
      const entry = pending.get(token);
      if (!entry || entry.until <= now()) return json({ error: "not_found", hint: "No drawing is under way at this address." }, 404);
      const check = checkBrokerRequest(request.method, path, "/api");
      if (!check.ok) return json({ error: check.error, hint: check.hint }, check.status);
      if (!entry.grant.allows(check.pathname)) {
        const paths = entry.grant.paths ?? [];
        return json({ error: "read_not_agreed", hint: `This dashboard's code names ${paths.length ? paths.join(", ") : "no API paths"}; ${check.pathname} is not among them. Write each API path the dashboard reads literally in its code.` }, 403);
      }
      if (entry.reads.size >= READS_MAX && !entry.reads.has(check.path)) {
        return json({ error: "rate_limited", hint: `A drawing makes at most ${READS_MAX} reads.` }, 429);
      }
      const res = await readApi(entry.viewer, check.pathname, check.path);
      entry.reads.set(check.path, { pathname: check.pathname, status: res.status, digest: digest(res.status, res.text) });
      if (res.status >= 200 && res.status < 300) entry.links.addAnswer(res.text);
      return new Response(res.text, { status: res.status, headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store" } });
    },
  };
}

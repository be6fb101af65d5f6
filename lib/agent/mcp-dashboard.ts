import "server-only";
import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { SessionUser } from "@/lib/auth/session";
import { decideLive, type CodeAuthor, type LiveDecision, type LiveGrant } from "@/lib/consent/live";
import type { Db } from "@/lib/db";
import { ApiError } from "@/lib/contract/errors";
import { neutralised } from "@/lib/contract/display-text";
import { RENDER_VIEWPORTS, type RenderViewport } from "@/lib/contract/renders";
import { drawnDashboard, orRefusal, plainInput, readDashboard, relayedRead, shownDashboard } from "@/lib/contract/mcp-outputs";
import { checkBrokerRequest } from "@/lib/frame/protocol";
import { addressMatcher, clientAddress } from "@/lib/http/client-address";
import { JSON_CONTENT_TYPE, stringify } from "@/lib/http/respond";
import type { Drawings } from "@/lib/saved/drawings";
import { loadDashboard } from "@/lib/saved/store";
import { trusts, type SavedReads } from "@/lib/saved/trust";
import { DASHBOARD_VIEW_TOOL_META } from "./mcp-app";

// Saved dashboards over MCP, on the live data of the person an access token speaks for. The
// browser's rules decide, by the same function (lib/consent/live.ts): the viewer's own dashboard
// and a trusted author's run at once. Anyone else's code is never run in the host: an access token
// is held by an app, not by the person, so nothing it carries can stand for the person's yes.
// Instead the view shows it as the site's safe view does (lib/saved/drawings.ts): drawn by the
// service in its own contained browser on the person's data, handed over as an inert document
// (draw_dashboard), which needs no one's yes. For it interactive, the view hands the person to the
// dashboard's own page on this site (ui/open-link), where they decide as a person does, signed in
// at this site's own pages; the trust they give there is the only one honoured here, and nothing
// over MCP writes it. The tools the view calls are hidden from the model.

export interface DashboardSource {
  db: () => Promise<Db>;
  savedReads: SavedReads;
  /** One GET of /api's `path` (relative to /api) as `user`: the same permissions and answers a browser gets. */
  readApi: (user: SessionUser, path: string, search: URLSearchParams) => Promise<{ status: number; body: unknown }>;
  /** The safe view's drawings: someone else's dashboard drawn on the viewer's data. */
  drawings: Drawings;
  /** Proxies whose X-Forwarded-For names the caller, for the renderer's per-address share. */
  trustedProxy?: readonly string[];
}

/** The API base a saved dashboard reads from, in the browser and here. */
const LIVE_API_BASE = "/api";

const handleField = z.string({ error: "required: the handle of the space, as in /~/<handle>/<slug>" }).min(1).max(64).meta({ description: "The space's handle: /~/<handle>/<slug>" });
const slugField = z.string({ error: "required: the dashboard's slug, as in /~/<handle>/<slug>" }).min(1).max(64).meta({ description: "The dashboard's slug: /~/<handle>/<slug>" });

interface Shown {
  dashboard: NonNullable<Awaited<ReturnType<typeof loadDashboard>>>;
  author: CodeAuthor;
  reads: { paths: string[]; complete: boolean };
  decision: LiveDecision;
}

const toolError = (error: string, hint: string): CallToolResult => ({ content: [{ type: "text", text: `${error}: ${hint}` }], structuredContent: { error, hint }, isError: true });

/** What the dashboard tools share: the viewer, their source, and what the consent rules say of a dashboard. */
function dashboardView(viewer: SessionUser | null, source: DashboardSource, origin: () => string) {
  const signIn = toolError("unauthorized", "Connect this app to your Dashboards account (OAuth) to show saved dashboards.");

  /** The dashboard and what the consent rules say of it for this viewer. */
  async function shown(who: SessionUser, handle: string, slug: string): Promise<Shown | null> {
    const db = await source.db();
    const dashboard = await loadDashboard(db, handle, slug);
    if (!dashboard) return null;
    const own = dashboard.owner.id === who.id;
    const author: CodeAuthor = own ? { kind: "viewer" } : { kind: "space", handle: dashboard.owner.handle, name: dashboard.owner.name, trusted: await trusts(db, who.id, dashboard.owner.id) };
    const reads = own ? { paths: [], complete: true } : source.savedReads(dashboard.owner.id, slug, dashboard.shown.revision, dashboard.shown.html);
    return { dashboard, author, reads: { paths: [...reads.paths], complete: reads.complete }, decision: decideLive({ signedIn: true, author, reads, agreement: null }) };
  }

  /** The grant for this view: the viewer's own dashboard or a trusted author's; no one else's. */
  const grantFor = (s: Shown): LiveGrant | null => (s.decision.kind === "run" ? s.decision.grant : null);

  const notFound = (handle: string, slug: string) => toolError("not_found", `No saved dashboard at /~/${handle.slice(0, 64)}/${slug.slice(0, 64)}.`);

  const stateOf = (s: Shown, live: boolean) => ({
    path: s.dashboard.path,
    url: `${origin()}${s.dashboard.path}`,
    // Titles and names as people read them: nothing in them reorders the words around them.
    title: neutralised(s.dashboard.title),
    owner: { handle: s.dashboard.owner.handle, name: neutralised(s.dashboard.owner.name) },
    yours: s.author.kind === "viewer",
    revision: s.dashboard.shown.revision,
    savedAt: s.dashboard.shown.savedAt,
    // "drawn": someone else's, shown drawn by the service on the viewer's data (draw_dashboard);
    // it runs interactively on their data only at its page on this site.
    live: live ? ("run" as const) : ("drawn" as const),
    reads: s.reads.paths,
    readsComplete: s.reads.complete,
  });

  return { viewer, source, signIn, shown, grantFor, notFound, stateOf };
}

type DashboardView = ReturnType<typeof dashboardView>;

export function registerDashboardTools(server: McpServer, request: Request, viewer: SessionUser | null, source: DashboardSource, origin: () => string): void {
  const view = dashboardView(viewer, source, origin);
  registerShownTools(server, view);
  registerDrawTool(server, request, view);
  registerLiveReadTool(server, view);
}

/** show_dashboard for the model, and read_dashboard for the view of one that runs. */
function registerShownTools(server: McpServer, { viewer, signIn, shown, grantFor, notFound, stateOf }: DashboardView): void {
  server.registerTool(
    "show_dashboard",
    {
      title: "Show a saved dashboard inline",
      description: [
        "Show the signed-in person a saved dashboard, /~/<handle>/<slug>, inline on their own live data (MCP Apps; needs their OAuth authorization).",
        "Theirs and trusted authors' run; anyone else's is shown drawn by this site, inert, with a link to its page here, where the person decides. Other hosts get its URL: give it to the person.",
      ].join(" "),
      inputSchema: plainInput(z.object({ handle: handleField, slug: slugField }).strict()),
      outputSchema: orRefusal(shownDashboard),
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: DASHBOARD_VIEW_TOOL_META,
    },
    async ({ handle, slug }) => {
      if (!viewer) return signIn;
      const s = await shown(viewer, handle, slug);
      if (!s) return notFound(handle, slug);
      const live = s.decision.kind === "run";
      const state = stateOf(s, live);
      const words = [
        `${state.title} (${state.url}), by ${state.owner.name} (@${state.owner.handle}), revision ${state.revision}.`,
        live
          ? "It is shown on the person's live data."
          : `It is someone else's and reads ${state.reads.length ? state.reads.join(", ") : "no API paths"}: the view shows it drawn by this site on the person's data, without running its code in the host. It runs interactively on their data only on this site, once they choose to there: give them the URL for that.`,
      ].join(" ");
      return { content: [{ type: "text", text: `${words}\n${JSON.stringify(state)}` }], structuredContent: state };
    },
  );

  server.registerTool(
    "read_dashboard",
    {
      title: "Read a shown dashboard's code",
      description: "For the inline view of a saved dashboard (MCP Apps): its HTML, when it runs on the viewer's data (their own, or a trusted author's).",
      inputSchema: z.object({ handle: handleField, slug: slugField }).strict(),
      outputSchema: orRefusal(readDashboard),
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ["app"] } },
    },
    async ({ handle, slug }) => {
      if (!viewer) return signIn;
      const s = await shown(viewer, handle, slug);
      if (!s) return notFound(handle, slug);
      if (!grantFor(s)) return toolError("live_not_granted", `Someone else's dashboard runs on the viewer's data only on this site: open ${s.dashboard.path} there.`);
      const state = { ...stateOf(s, true), html: s.dashboard.shown.html };
      return { content: [{ type: "text", text: `${state.title}, revision ${state.revision}` }], structuredContent: state };
    },
  );
}

/** draw_dashboard: for the view of someone else's, the service's drawing of it on the viewer's data. */
function registerDrawTool(server: McpServer, request: Request, { viewer, source, signIn, shown, notFound }: DashboardView): void {
  const trusted = addressMatcher(source.trustedProxy ?? []);
  server.registerTool(
    "draw_dashboard",
    {
      title: "Draw a shown dashboard on the viewer's data",
      description:
        "For the inline view of someone else's saved dashboard (MCP Apps): the service draws it in its own contained browser on the viewer's data and answers the inert document {html, drawnAt, height, revision, viewport, remembered}, with no script and no address but data: images, for a frame that runs no script. Busy, the error's last line is JSON with retryAfter (seconds).",
      inputSchema: z
        .object({
          handle: handleField,
          slug: slugField,
          viewport: z.enum(Object.keys(RENDER_VIEWPORTS) as [RenderViewport, ...RenderViewport[]]).optional().meta({ description: "desktop (the default) or phone: the width it is drawn at" }),
        })
        .strict(),
      outputSchema: orRefusal(drawnDashboard),
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ["app"] } },
    },
    async ({ handle, slug, viewport }) => {
      if (!viewer) return signIn;
      const s = await shown(viewer, handle, slug);
      if (!s) return notFound(handle, slug);
      const d = s.dashboard;
      // What the code reads, even for the viewer's own: the drawing is held to the paths it names.
      const reads = source.savedReads(d.owner.id, d.slug, d.shown.revision, d.shown.html);
      try {
        const drawing = await source.drawings.draw(
          viewer,
          { ownerId: d.owner.id, handle: d.handle, slug: d.slug, revision: d.shown.revision, title: d.title, html: d.shown.html },
          reads,
          viewport ?? "desktop",
          clientAddress(request, trusted),
        );
        return { content: [{ type: "text", text: `${neutralised(d.title)}, revision ${drawing.revision}, drawn ${drawing.drawnAt}` }], structuredContent: { ...drawing } };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const retryAfter = Number(err.headers?.["retry-after"]);
        const envelope = { error: err.code, hint: err.hint, ...(Number.isFinite(retryAfter) ? { retryAfter } : {}) };
        return { content: [{ type: "text", text: `${err.message}\n${JSON.stringify(envelope)}` }], structuredContent: envelope, isError: true };
      }
    },
  );
}

/** read_live_data: one read the view of a running dashboard makes, as the browser's broker allows it. */
function registerLiveReadTool(server: McpServer, { viewer, source, signIn, shown, grantFor }: DashboardView): void {
  server.registerTool(
    "read_live_data",
    {
      title: "Read the viewer's data for a shown dashboard",
      description:
        "For the inline view of a saved dashboard (MCP Apps): one read the dashboard makes, checked as the browser's broker checks it, served only for the viewer's own dashboards and trusted authors', on the paths the code reads, and answered by the API as the viewer, as {status, contentType, body}.",
      inputSchema: z
        .object({
          handle: handleField,
          slug: slugField,
          method: z.string().max(16).optional(),
          path: z.string({ error: "required: the path the dashboard read, under /api" }).max(4096),
        })
        .strict(),
      outputSchema: orRefusal(relayedRead),
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ["app"] } },
    },
    async ({ handle, slug, method, path }) => {
      if (!viewer) return signIn;
      const read = await (async (): Promise<{ status: number; body: unknown }> => {
        const s = await shown(viewer, handle, slug);
        if (!s) return { status: 404, body: { error: "not_found", hint: `No saved dashboard at /~/${handle.slice(0, 64)}/${slug.slice(0, 64)}.` } };
        const grant = grantFor(s);
        if (!grant) return { status: 403, body: { error: "live_not_granted", hint: `Someone else's dashboard reads the viewer's data only on this site: open ${s.dashboard.path} there.` } };
        const check = checkBrokerRequest(method ?? "GET", path, LIVE_API_BASE);
        if (!check.ok) return { status: check.status, body: { error: check.error, hint: check.hint } };
        if (!grant.allows(check.pathname)) {
          const paths = grant.paths ?? [];
          return { status: 403, body: { error: "read_not_agreed", hint: `This dashboard may read ${paths.length ? paths.join(", ") : "no API paths"}; ${check.pathname} is not among them.` } };
        }
        return source.readApi(viewer, check.pathname, new URL(`${LIVE_API_BASE}${check.path}`, "http://localhost").searchParams);
      })();
      const body = stringify(read.body);
      const answer = { status: read.status, contentType: JSON_CONTENT_TYPE, body };
      return { content: [{ type: "text", text: `${answer.status} ${body.slice(0, 200)}` }], structuredContent: answer };
    },
  );
}

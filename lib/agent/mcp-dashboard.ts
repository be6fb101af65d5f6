import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { SessionUser } from "@/lib/auth/session";
import { constantTimeEqual } from "@/lib/auth/tokens";
import { agree, decideLive, type CodeAuthor, type LiveDecision, type LiveGrant } from "@/lib/consent/live";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { checkBrokerRequest } from "@/lib/frame/protocol";
import { LOCAL_ADDRESS_HEADER, PEER_HEADER } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { loadDashboard } from "@/lib/saved/store";
import { addTrust, trusts, type SavedReads } from "@/lib/saved/trust";
import { DASHBOARD_VIEW_TOOL_META } from "./mcp-app";

// Saved dashboards over MCP, on the live data of the person an access token speaks for. The
// browser's rules hold unchanged, decided by the same function (lib/consent/live.ts): the
// viewer's own dashboard and a trusted author's run at once; anyone else's shows its author and
// the paths it reads, and runs only after the viewer allows it in the inline view's own gate.
//
// That yes travels as two short-lived values signed with the deployment's key, both bound to the
// viewer, the dashboard, its revision and the paths it reads: show_dashboard hands the view a
// question (in the result's _meta, which hosts give the view and not the model), allow_dashboard
// turns it into an agreement, and read_live_data serves a read only with that agreement (or
// trust). "Always trust" writes the one trust list the browser uses (lib/saved/trust.ts), which
// /account lists and revokes. The tools the view calls are hidden from the model.

export interface DashboardSource {
  db: () => Promise<Db>;
  sealer: () => Sealer;
  savedReads: SavedReads;
  /** One GET through /api as `user`: the same route, permissions and answers a browser gets. */
  readApi: (request: Request, path: string, user: SessionUser) => Promise<Response>;
}

/** The API base a saved dashboard reads from, in the browser and here. */
const LIVE_API_BASE = "/api";
const QUESTION_MS = 30 * 60_000;
const AGREEMENT_MS = 60 * 60_000;
const TOKEN_MAX = 200;
/** What the API may decide by of the caller's request: its address and the Host it named; never its credentials. */
const FORWARDED = ["host", "x-forwarded-for", PEER_HEADER, LOCAL_ADDRESS_HEADER] as const;

const handleField = z.string({ error: "required: the handle of the space, as in /~/<handle>/<slug>" }).min(1).max(64).meta({ description: "The space's handle: /~/<handle>/<slug>" });
const slugField = z.string({ error: "required: the dashboard's slug, as in /~/<handle>/<slug>" }).min(1).max(64).meta({ description: "The dashboard's slug: /~/<handle>/<slug>" });
const agreementField = z.string().max(TOKEN_MAX).optional().meta({ description: "The agreement allow_dashboard answered (the view passes it)" });

interface Shown {
  dashboard: NonNullable<Awaited<ReturnType<typeof loadDashboard>>>;
  author: CodeAuthor;
  reads: { paths: string[]; complete: boolean };
  decision: LiveDecision;
}

function signed(sealer: Sealer, kind: "question" | "agreement", viewer: SessionUser, s: Shown, until: number): string {
  const bound = [kind, viewer.id, s.dashboard.owner.id, s.dashboard.slug, s.dashboard.shown.revision, s.reads.paths.join(" "), until].join("|");
  return `${until}.${sealer.mac(bound, "mcp-consent")}`;
}

function validSigned(sealer: Sealer, kind: "question" | "agreement", value: string | undefined, viewer: SessionUser, s: Shown, now: number): boolean {
  if (!value || value.length > TOKEN_MAX) return false;
  const dot = value.indexOf(".");
  const until = Number(value.slice(0, dot));
  if (dot <= 0 || !Number.isSafeInteger(until) || until <= now) return false;
  return constantTimeEqual(value, signed(sealer, kind, viewer, s, until));
}

const toolError = (error: string, hint: string): CallToolResult => ({ content: [{ type: "text", text: `${error}: ${hint}` }], isError: true });

export function registerDashboardTools(server: McpServer, request: Request, viewer: SessionUser | null, source: DashboardSource, origin: () => string): void {
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

  /** The grant for this view: the decision's, or the one the viewer's agreement makes. */
  function grantFor(who: SessionUser, s: Shown, agreement: string | undefined): LiveGrant | null {
    if (s.decision.kind === "run") return s.decision.grant;
    if (!validSigned(source.sealer(), "agreement", agreement, who, s, Date.now())) return null;
    const after = decideLive({ signedIn: true, author: s.author, reads: s.reads, agreement: agree(s.decision.question) });
    return after.kind === "run" ? after.grant : null;
  }

  const notFound = (handle: string, slug: string) => toolError("not_found", `No saved dashboard at /~/${handle.slice(0, 64)}/${slug.slice(0, 64)}.`);

  const stateOf = (s: Shown, live: boolean) => ({
    path: s.dashboard.path,
    url: `${origin()}${s.dashboard.path}`,
    title: s.dashboard.title,
    owner: { handle: s.dashboard.owner.handle, name: s.dashboard.owner.name },
    yours: s.author.kind === "viewer",
    revision: s.dashboard.shown.revision,
    savedAt: s.dashboard.shown.savedAt,
    live: live ? ("run" as const) : ("ask" as const),
    reads: s.reads.paths,
    readsComplete: s.reads.complete,
  });

  server.registerTool(
    "show_dashboard",
    {
      title: "Show a saved dashboard inline",
      description: [
        "Show the signed-in person one of their saved dashboards, or one someone else saved, inline in the conversation on their own live data (MCP Apps), given its address /~/<handle>/<slug>.",
        "Needs the person's authorization (OAuth); without it the server answers 401 and the host signs them in.",
        "Someone else's dashboard runs only after the person allows its author in the view; until then the view shows who wrote it and which API paths it reads.",
        "Hosts without MCP Apps get the title, the author, what it reads and its URL: give the person the URL.",
      ].join(" "),
      inputSchema: z.object({ handle: handleField, slug: slugField }).strict(),
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
          : `It is someone else's: it reads ${state.reads.length ? state.reads.join(", ") : "no API paths"}, and the person is asked in the view before it reads their data.`,
      ].join(" ");
      return {
        content: [{ type: "text", text: `${words}\n${JSON.stringify(state)}` }],
        structuredContent: state,
        // For the view alone: the question its gate answers.
        ...(live ? {} : { _meta: { consent: signed(source.sealer(), "question", viewer, s, Date.now() + QUESTION_MS) } }),
      };
    },
  );

  server.registerTool(
    "read_dashboard",
    {
      title: "Read a shown dashboard's code",
      description: "For the inline view of a saved dashboard (MCP Apps): its HTML, once it may run on the viewer's data.",
      inputSchema: z.object({ handle: handleField, slug: slugField, agreement: agreementField }).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ["app"] } },
    },
    async ({ handle, slug, agreement }) => {
      if (!viewer) return signIn;
      const s = await shown(viewer, handle, slug);
      if (!s) return notFound(handle, slug);
      if (!grantFor(viewer, s, agreement)) return toolError("live_not_granted", "The viewer has not allowed this dashboard's author yet.");
      const state = { ...stateOf(s, true), html: s.dashboard.shown.html };
      return { content: [{ type: "text", text: `${state.title}, revision ${state.revision}` }], structuredContent: state };
    },
  );

  server.registerTool(
    "allow_dashboard",
    {
      title: "Allow a dashboard on the viewer's data",
      description: "For the inline view's consent gate (MCP Apps): the viewer's yes to someone else's dashboard, for this view or, with always, for every dashboard of its author (listed and revocable on /account).",
      inputSchema: z.object({ handle: handleField, slug: slugField, consent: z.string().max(TOKEN_MAX), always: z.boolean().optional() }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ["app"] } },
    },
    async ({ handle, slug, consent, always }) => {
      if (!viewer) return signIn;
      const s = await shown(viewer, handle, slug);
      if (!s) return notFound(handle, slug);
      if (s.decision.kind === "run") return { content: [{ type: "text", text: "Nothing to allow: it runs on your data." }], structuredContent: { allowed: true } };
      if (!validSigned(source.sealer(), "question", consent, viewer, s, Date.now())) {
        return toolError("consent_expired", "The question was for another revision or has expired; show the dashboard again.");
      }
      if (always) await addTrust(await source.db(), viewer.id, s.dashboard.owner.handle);
      const agreement = signed(source.sealer(), "agreement", viewer, s, Date.now() + AGREEMENT_MS);
      return { content: [{ type: "text", text: "Allowed." }], structuredContent: { allowed: true, agreement, trusted: always === true } };
    },
  );

  server.registerTool(
    "read_live_data",
    {
      title: "Read the viewer's data for a shown dashboard",
      description:
        "For the inline view of a saved dashboard (MCP Apps): one read the dashboard makes, checked as the browser's broker checks it, served only on the paths the viewer allowed, and answered by the API as the viewer, as {status, contentType, body}.",
      inputSchema: z
        .object({
          handle: handleField,
          slug: slugField,
          method: z.string().max(16).optional(),
          path: z.string({ error: "required: the path the dashboard read, under /api" }).max(4096),
          agreement: agreementField,
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ui: { visibility: ["app"] } },
    },
    async ({ handle, slug, method, path, agreement }) => {
      if (!viewer) return signIn;
      const read = await (async (): Promise<Response> => {
        const s = await shown(viewer, handle, slug);
        if (!s) return json({ error: "not_found", hint: `No saved dashboard at /~/${handle.slice(0, 64)}/${slug.slice(0, 64)}.` }, 404);
        const grant = grantFor(viewer, s, agreement);
        if (!grant) return json({ error: "live_not_granted", hint: "The viewer has not allowed this dashboard to read their data." }, 403);
        const check = checkBrokerRequest(method ?? "GET", path, LIVE_API_BASE);
        if (!check.ok) return json({ error: check.error, hint: check.hint }, check.status);
        if (!grant.allows(check.pathname)) {
          const paths = grant.paths ?? [];
          return json({ error: "read_not_agreed", hint: `The viewer agreed to this dashboard reading ${paths.length ? paths.join(", ") : "no API paths"}; ${check.pathname} is not among them.` }, 403);
        }
        const headers = new Headers();
        for (const name of FORWARDED) {
          const value = request.headers.get(name);
          if (value !== null) headers.set(name, value);
        }
        return source.readApi(new Request(new URL(`${LIVE_API_BASE}${check.path}`, request.url), { method: "GET", headers }), check.pathname, viewer);
      })();
      const body = await read.text();
      const answer = { status: read.status, contentType: read.headers.get("content-type") ?? "application/json", body };
      return { content: [{ type: "text", text: `${answer.status} ${body.slice(0, 200)}` }], structuredContent: answer };
    },
  );
}

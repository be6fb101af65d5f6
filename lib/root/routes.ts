import "server-only";
import type { Config } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/session";
import { userForRequest } from "@/lib/auth/session";
import { createClientMetadataFetcher } from "@/lib/auth/client-metadata";
import type { ReadCache } from "@/lib/cache/read-cache";
import { connectionAction } from "@/lib/connectors/routes";
import type { StandIns } from "@/lib/connectors/stand-ins";
import { apiHandlers } from "@/lib/api";
import { apiRoute, type ApiRead, type HandlerServices } from "@/lib/api/api-route";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import type { Playground } from "@/lib/playground/service";
import type { DemoReads } from "@/lib/playground/stages";
import type { RequestEdge } from "@/lib/ops/requests";
import { playgroundRoutes, type PlaygroundRoutes } from "@/lib/playground/routes";
import { draftDrawingRoute } from "@/lib/playground/drawn";
import { agentRoutes, type AgentRoutes } from "@/lib/agent/routes";
import { agentRulesMarkdown, agentStatesMarkdown } from "@/lib/reference/agent-rules";
import { referenceRoutes, type ReferenceRoutes } from "@/lib/reference/routes";
import { savedRoutes, type SavedRoutes } from "@/lib/saved/routes";
import { sourceRoute } from "@/lib/saved/source-route";
import type { HumanDeps } from "@/lib/saved/human";
import type { SavedReads } from "@/lib/saved/trust";
import type { Drawings } from "@/lib/saved/drawings";
import { drawingRoutes, type DrawingRoutes } from "@/lib/saved/drawing-routes";
import { drawnPictureRoute, type DrawnPictures } from "@/lib/saved/pictures";
import { snapshotRoutes, type SnapshotRoutes } from "@/lib/saved/snapshot-routes";
import { oauthRoutes, type OAuthRoutes } from "@/lib/signin/oauth-routes";
import { signinRoutes, type SigninRoutes } from "@/lib/signin/signin-routes";
import type { OidcDiscovery } from "@/lib/signin/oidc";
import { FRAME_HEADERS, bootstrapHtml } from "@/lib/frame/bootstrap";
import type { Metrics } from "@/lib/ops/metrics";
import type { Readiness } from "@/lib/ops/readiness";
import { opsRoutes, type OpsRoutes } from "@/lib/ops/routes";

// Every route module the app serves, built from the app's parts.

export interface AppRoutes {
  api: RouteModule;
  playground: PlaygroundRoutes;
  agent: AgentRoutes;
  saved: SavedRoutes & {
    /** GET /~/<handle>/<slug>/source: a saved dashboard's HTML as plain text. */
    source: RouteModule;
  };
  /** The safe view: a viewer's drawing of someone else's dashboard, and a drawing's reads. */
  drawings: DrawingRoutes & {
    /** The safe view of a live draft's watch link. */
    draft: RouteModule;
  };
  /** GET /~/<handle>/<slug>/drawn.png: the safe view's drawing as a picture, for "Download picture". */
  drawingPicture: RouteModule;
  /** Snapshots: freezing, sharing and revoking one's own (POST /account/snapshots), and opening one. */
  snapshots: SnapshotRoutes;
  /** The MCP endpoint's authorization server: metadata, registration, consent, tokens. */
  oauth: OAuthRoutes;
  connections: RouteModule;
  standIns: RouteModule;
  /** The reference's documents: OpenAPI, llms.txt, the Markdown and the search index. */
  reference: ReferenceRoutes;
  /** Demo and identity-provider sign-in, and sign-out. */
  signin: SigninRoutes;
  /** Liveness, readiness, metrics, and the test and benchmark routes. */
  ops: OpsRoutes;
  /** GET /dashboards/frame: the sandboxed frame's bootstrap document; the host page sends it the dashboard. */
  frame: RouteModule;
}

interface RouteParts {
  config: Config;
  db: () => Promise<Db>;
  sealer: () => Sealer;
  vendorReads: ReadCache;
  standIns: StandIns;
  playground: () => Promise<Playground>;
  demoReads: DemoReads;
  humanDeps: () => Promise<HumanDeps>;
  services: () => HandlerServices;
  savedReads: SavedReads;
  drawings: Drawings;
  drawnPictures: DrawnPictures;
  /** /api read as this person (the MCP endpoint's bearer, a drawing's viewer), handed over as such. */
  readApi: (user: SessionUser, path: string, search: URLSearchParams) => Promise<ApiRead>;
  /** The HTTP server's edge, once operations have started. */
  edge: () => RequestEdge | undefined;
  oidcDiscovery: OidcDiscovery;
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
}

/** What the MCP authorization server and the MCP endpoint's dashboards share. */
function oauthDepsOf(config: Config, db: () => Promise<Db>, sealer: () => Sealer) {
  return {
    db,
    sealer,
    publicOrigin: config.publicOrigin,
    allowedHosts: config.allowedHosts,
    trustedProxy: config.playground.trustedProxy,
    registrations: config.oauth.registrations,
    clientMetadata: createClientMetadataFetcher({ allowPrivate: config.oauth.metadataFromPrivateAddresses }),
  };
}

export function appRoutes(parts: RouteParts): AppRoutes {
  const { config, db, sealer: sealerOf, standIns, playground: playgroundOf, demoReads, humanDeps, services, savedReads, drawings, drawnPictures } = parts;
  const oauthDeps = oauthDepsOf(config, db, sealerOf);
  const trustedProxy = config.playground.trustedProxy;
  return {
    api: apiRoute({ db, userFor: userForRequest, handlers: apiHandlers, services }),
    playground: playgroundRoutes({
      playground: playgroundOf,
      demoReads,
      writeBodyAfterHeaders: (request, status, writer) => parts.edge()?.writeBodyAfterHeaders(request, status, writer) ?? false,
    }),
    agent: agentRoutes({
      playground: playgroundOf,
      rules: { rules: agentRulesMarkdown, states: agentStatesMarkdown },
      dashboards: { ...oauthDeps, savedReads, drawings, readApi: parts.readApi },
    }),
    saved: { ...savedRoutes(humanDeps), source: sourceRoute(db) },
    reference: referenceRoutes(config),
    drawings: {
      ...drawingRoutes({ db, drawings, savedReads, trustedProxy }),
      draft: draftDrawingRoute({ db, playground: playgroundOf, drawings, trustedProxy }),
    },
    drawingPicture: drawnPictureRoute({ db, drawings, pictures: drawnPictures, savedReads, trustedProxy }),
    snapshots: snapshotRoutes({ human: humanDeps, db, sealer: sealerOf, drawings, pictures: drawnPictures, savedReads, trustedProxy, publicOrigin: config.publicOrigin }),
    oauth: oauthRoutes(oauthDeps),
    signin: signinRoutes({ db, config, discovery: parts.oidcDiscovery }),
    ops: opsRoutes({ config, metrics: parts.metrics, readiness: parts.readiness }),
    frame: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({ GET: on({ handle: () => new Response(bootstrapHtml(), { status: 200, headers: FRAME_HEADERS }) }) }),
    }),
    connections: defineRoute({
      params: (raw) => ({ slug: oneParam(raw, "slug"), action: [raw.action ?? []].flat().join("/") }),
      refuse: "The vendor returns to …/callback with GET; the buttons on /connections POST the rest.",
      methods: (on) => {
        const handle = on({
          handle: ({ request, params }) =>
            connectionAction(request, params.slug, params.action, { db, sealer: sealerOf(), config, vendorReads: parts.vendorReads, standIns }),
        });
        return { GET: handle, POST: handle };
      },
    }),
    standIns: defineRoute({
      // The stand-ins match decoded paths, as the vendors' routers do.
      params: (raw) => ({ slug: oneParam(raw, "slug"), path: `/${[raw.path ?? []].flat().join("/")}` }),
      refuse: "The stand-ins take GET and POST, as the vendors' APIs do.",
      methods: (on) => {
        const handle = on({ handle: ({ request, params }) => standIns.serve(request, params.slug, params.path) });
        return { GET: handle, POST: handle };
      },
    }),
  };
}

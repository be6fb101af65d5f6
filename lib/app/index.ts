import "server-only";
import { browserEnvironment, config as processConfig, type Config } from "@/lib/config";
import type { ReadCache } from "@/lib/cache/read-cache";
import { createSealer, loadKeyMaterial, type Sealer } from "@/lib/crypto/secrets";
import { openDb, type Db, type OpenDb } from "@/lib/db";
import { userForRequest, type SessionUser } from "@/lib/auth/session";
import { createCredentials, type Credentials } from "@/lib/connectors/credentials";
import { connectionAction } from "@/lib/connectors/routes";
import { createStandIns, type StandIns } from "@/lib/connectors/stand-ins";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import { startCrmSync, type CrmSyncScheduler } from "@/lib/crm/scheduler";
import { crmUpstreamFor, type CrmUpstream } from "@/lib/crm/upstream";
import { apiHandlers } from "@/lib/handlers";
import { apiRoute, readApiAs, type HandlerServices } from "@/lib/handlers/api-route";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { installPeerStamp } from "@/lib/http/origin";
import { createPlayground, type Playground } from "@/lib/playground/service";
import { demoReadsOf, type DemoReads } from "@/lib/playground/stages";
import { playgroundRoutes, type PlaygroundRoutes } from "@/lib/playground/route-modules";
import { agentRoutes, type AgentRoutes } from "@/lib/agent/route-modules";
import { agentRulesMarkdown, agentStatesMarkdown } from "@/lib/docs/agent-rules";
import { playgroundSettingsOf } from "@/lib/playground/settings";
import { savedRoutes, type SavedRoutes } from "@/lib/saved/routes";
import type { HumanDeps } from "@/lib/saved/human";
import { newSavedAnalysis, type SavedParamReads, type SavedReads } from "@/lib/saved/trust";
import { seedDemo } from "@/lib/seed";
import { newOidcDiscovery, type OidcDiscovery } from "@/lib/signin/oidc";
import { oauthRoutes, type OAuthRoutes } from "@/lib/signin/oauth-routes";
import { createLogger, outsideRequestScope, type Logger } from "@/lib/ops/log";
import { sinkServerLog } from "@/lib/ops/log-sink";
import { createMetrics, type Metrics } from "@/lib/ops/metrics";
import { announcePresence, type Presence } from "@/lib/ops/presence";
import { readiness, type Readiness } from "@/lib/ops/readiness";
import { installRequestEdge, type RequestEdge } from "@/lib/ops/requests";
import { buildRouteTemplates } from "@/lib/ops/route-template";
import { shutdownOnSignal } from "@/lib/ops/shutdown";
import { findChromium, Renderer } from "@/lib/renderer";
import { createClientMetadataFetcher } from "@/lib/auth/client-metadata";
import { createDrawings, type Drawings } from "@/lib/saved/drawings";
import { drawingRoutes, type DrawingRoutes } from "@/lib/saved/drawing-routes";
import { draftDrawingRoute } from "@/lib/playground/drawn";
import { createDrawnPictures, drawnPictureRoute, type DrawnPictures } from "@/lib/saved/pictures";
import { snapshotRoutes, type SnapshotRoutes } from "@/lib/saved/snapshot-routes";

// The composition root. Everything the process keeps between requests is built here, once,
// from one configuration, and handed to the routes that need it: storage, the key that seals
// secrets, the answer and vendor-read caches, the saved revisions' read manifests, the identity
// provider's discovered configuration, connector credentials (with their renewals in flight),
// the playground (its hub and fan-out), the demo API's allowance, the stand-ins, and the CRM
// sync. No other module keeps state on globalThis (ESLint enforces it); tests build an app of
// their own with `createApp(config)`.
//
// Nothing is opened or generated when the app is built: storage opens on first use (the
// instrumentation hook opens it at start), so building route modules at import costs nothing.

export interface App {
  readonly config: Config;
  /** The deployment's sealer for secrets at rest, cursors and stand-in tokens. */
  sealer(): Sealer;
  /** Storage, opened, migrated and (in the embedded default) seeded once. */
  storage(): Promise<OpenDb>;
  db(): Promise<Db>;
  readonly caches: { answers: ReadCache; vendorReads: ReadCache };
  /** What a saved revision reads, worked out once per revision (lib/saved/trust.ts). */
  readonly savedReads: SavedReads;
  /** The page parameters a saved revision reads, from the same memo (lib/saved/trust.ts). */
  readonly savedParamReads: SavedParamReads;
  /** Someone else's dashboards drawn on the viewer's data, as inert documents (lib/saved/drawings.ts). */
  readonly drawings: Drawings;
  /** Those drawings as PNG, remembered beside them (lib/saved/pictures.ts; the renderer's picture()). */
  readonly drawnPictures: DrawnPictures;
  /** The identity provider's configuration, discovered on the first sign-in (lib/signin/oidc.ts). */
  readonly oidcDiscovery: OidcDiscovery;
  readonly standIns: StandIns;
  /** Connector credentials and their renewal (one renewal per credential at a time in this process). */
  readonly credentials: Credentials;
  readonly crmUpstream: CrmUpstream;
  /** The playground on this app's storage; built on first use. */
  playground(): Promise<Playground>;
  readonly demoReads: DemoReads;
  readonly routes: AppRoutes;
  /** The CRM portal sync at start and on an interval; once per app, and not when the portal is off. */
  startBackground(): CrmSyncScheduler | null;
  /** What /api handlers are handed besides the request. */
  services(): HandlerServices;
  /** For page components: the human-action dependencies. */
  humanDeps(): Promise<HumanDeps>;
  /** Log lines on stdout: JSON for a collector, readable on a terminal (lib/ops/log.ts). */
  readonly log: Logger;
  readonly metrics: Metrics;
  /** Whether this instance should be sent traffic (GET /readyz). */
  readiness(): Promise<Readiness>;
  /**
   * The production server's operations, once per process: every request timed, counted and
   * logged with a request id, and SIGTERM shutting down gracefully (lib/ops).
   */
  startOperations(): void;
  /**
   * This process in the storage's instance registry until it shuts down (lib/ops/presence.ts):
   * db:move, db:backup and db:restore read who is running there. Once per process.
   */
  announce(): Promise<void>;
}

export interface AppRoutes {
  api: RouteModule;
  playground: PlaygroundRoutes;
  agent: AgentRoutes;
  saved: SavedRoutes;
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
}

interface AppOptions {
  /** Storage already open (tests hand in theirs); by default the configured storage is opened and seeded on first use. */
  storage?: OpenDb;
}

export function createApp(config: Config, options: AppOptions = {}): App {
  let sealer: Sealer | undefined;
  const sealerOf = () => (sealer ??= createSealer(loadKeyMaterial(config.secretKey, config.dataDir)));

  let storage: Promise<OpenDb> | undefined = options.storage ? Promise.resolve(options.storage) : undefined;
  const storageOf = (): Promise<OpenDb> =>
    (storage ??= outsideRequestScope(async () => {
      const open = await openDb(config.storage);
      metrics.statementsFrom(open.statements);
      if (config.demo.enabled) {
        await seedDemo(open.db, { scale: config.demo.scale, sealer: sealerOf(), upstreams: config.upstreams, standInTokenTtlMs: config.standInTokenTtlMs });
      }
      return open;
    }).catch((err: unknown) => {
      storage = undefined;
      throw err;
    }));
  const db = async () => (await storageOf()).db;

  const caches = { answers: newAnswerCache(), vendorReads: newVendorReadCache(config.connectorCache) };
  const { reads: savedReads, params: savedParamReads } = newSavedAnalysis();
  const oidcDiscovery = newOidcDiscovery();
  const standIns = createStandIns({ config, sealer: sealerOf, db });
  const crmUpstream = crmUpstreamFor(config, standIns);
  const credentials = createCredentials({ config, sealer: sealerOf });
  const settings = playgroundSettingsOf(config);
  // A terminal is a person reading; anything else is a collector, which expects JSON lines.
  const tty = process.stdout.isTTY === true;
  const format = config.log.format === "auto" ? (tty ? "pretty" : "json") : config.log.format;
  const log = createLogger({ format, level: config.log.level, colour: format === "pretty" && tty });
  const metrics = createMetrics();
  let playgroundNow: Playground | undefined;
  /** The HTTP server's edge, once operations have started (not in tests that build the app without a server). */
  let edge: RequestEdge | undefined;
  metrics.streamsFrom(() => playgroundNow?.hub.total() ?? 0);
  metrics.socketStreamsFrom(() => playgroundNow?.hub.onSocket() ?? 0);

  // The service's own browser, started on the first render; none where no Chromium is found.
  let renderer: Renderer | null | undefined;
  const rendererOf = (): Renderer | null => {
    // Not ??=: null (no Chromium found) is an answer, kept like a renderer.
    if (renderer === undefined) renderer = outsideRequestScope(() => {
      const executablePath = findChromium(config.renderer.chromium);
      return executablePath
        ? new Renderer({
            executablePath,
            ...config.renderer,
            origin: `http://127.0.0.1:${config.port}`,
            env: browserEnvironment(),
            log: (line) => log.warn(line, { component: "renderer" }),
          })
        : null;
    });
    return renderer;
  };

  // One allowance for the demo API's route and the MCP endpoint's demo reads; it needs no storage.
  const demoReads = demoReadsOf(settings);
  let playground: Promise<Playground> | undefined;
  const playgroundOf = (): Promise<Playground> =>
    (playground ??= outsideRequestScope(() =>
      storageOf().then((open) =>
        createPlayground(open, {
          settings,
          publicOrigin: config.publicOrigin,
          allowedHosts: config.allowedHosts,
          sealer: sealerOf(),
          renderer: rendererOf,
          log: (line) => log.warn(line, { component: "playground" }),
          observe: { refused: metrics.refused, fanout: metrics.fanout },
          demoReads,
        }),
      ),
    )
      .then((p) => (playgroundNow = p))
      .catch((err: unknown) => {
        playground = undefined;
        throw err;
      }));

  const services = (): HandlerServices => ({ config, sealer: sealerOf(), ...caches, credentials, crmUpstream });
  const humanDeps = async (): Promise<HumanDeps> => ({ db: await db(), sealer: sealerOf(), publicOrigin: config.publicOrigin });

  const oauthDeps = {
    db,
    sealer: sealerOf,
    publicOrigin: config.publicOrigin,
    allowedHosts: config.allowedHosts,
    trustedProxy: config.playground.trustedProxy,
    registrations: config.oauth.registrations,
    clientMetadata: createClientMetadataFetcher({ allowPrivate: config.oauth.metadataFromPrivateAddresses }),
  };
  // The MCP endpoint reads /api as the person its access token speaks for, and a drawing as its
  // viewer: that person is handed over as such, never read off anything a client sends.
  const readApi = (user: SessionUser, path: string, search: URLSearchParams) => readApiAs({ db, handlers: apiHandlers, services }, user, path, search);

  const drawings = createDrawings({
    renderer: rendererOf,
    readApi,
    origin: () => `http://127.0.0.1:${config.port}`,
  });
  const drawnPictures = createDrawnPictures({ renderer: rendererOf });

  let background: CrmSyncScheduler | null | undefined;
  let operations = false;
  let presence: Promise<Presence> | undefined;

  return {
    config,
    sealer: sealerOf,
    storage: storageOf,
    db,
    caches,
    savedReads,
    savedParamReads,
    drawings,
    drawnPictures,
    oidcDiscovery,
    standIns,
    credentials,
    crmUpstream,
    playground: playgroundOf,
    demoReads,
    humanDeps,
    services,
    log,
    metrics,
    readiness: () =>
      readiness({
        storage: storageOf,
        listening: async () => (await playgroundOf()).listening(),
      }),
    startOperations() {
      if (operations) return;
      operations = true;
      metrics.collectProcessMetrics();
      sinkServerLog(log);
      const installed = installRequestEdge({ log, metrics, template: buildRouteTemplates() });
      edge = installed;
      metrics.inFlightFrom(installed.inFlight);
      shutdownOnSignal({
        edge: installed,
        graceMs: config.shutdownGraceMs,
        log,
        endStreams: async () => playgroundNow?.endStreams() ?? 0,
        close: async () => {
          await background?.stop();
          await renderer?.close();
          await playgroundNow?.close();
          // Last before storage closes: until here the instance still worked on its data.
          await (await presence?.catch(() => undefined))?.stop();
          if (storage) await (await storage).close();
        },
      });
    },
    async announce() {
      presence ??= outsideRequestScope(async () =>
        announcePresence(await db(), { log: (line) => log.warn(line, { component: "instances" }) }),
      );
      await presence;
    },
    routes: {
      api: apiRoute({ db, userFor: userForRequest, handlers: apiHandlers, services }),
      playground: playgroundRoutes({
        playground: playgroundOf,
        demoReads,
        writeBodyAfterHeaders: (request, status, writer) => edge?.writeBodyAfterHeaders(request, status, writer) ?? false,
      }),
      agent: agentRoutes({
        playground: playgroundOf,
        rules: { rules: agentRulesMarkdown, states: agentStatesMarkdown },
        dashboards: {
          ...oauthDeps,
          savedReads,
          drawings,
          readApi,
        },
      }),
      saved: savedRoutes(humanDeps),
      drawings: {
        ...drawingRoutes({ db, drawings, savedReads, trustedProxy: config.playground.trustedProxy }),
        draft: draftDrawingRoute({ db, playground: playgroundOf, drawings, trustedProxy: config.playground.trustedProxy }),
      },
      drawingPicture: drawnPictureRoute({ db, drawings, pictures: drawnPictures, savedReads, trustedProxy: config.playground.trustedProxy }),
      snapshots: snapshotRoutes({ human: humanDeps, db, sealer: sealerOf, drawings, pictures: drawnPictures, savedReads, trustedProxy: config.playground.trustedProxy, publicOrigin: config.publicOrigin }),
      oauth: oauthRoutes(oauthDeps),
      connections: defineRoute({
        params: (raw) => ({ slug: oneParam(raw, "slug"), action: [raw.action ?? []].flat().join("/") }),
        refuse: "The vendor returns to …/callback with GET; the buttons on /connections POST the rest.",
        methods: (on) => {
          const handle = on({
            handle: ({ request, params }) =>
              connectionAction(request, params.slug, params.action, { db, sealer: sealerOf(), config, vendorReads: caches.vendorReads, standIns }),
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
    },
    startBackground() {
      if (background !== undefined) return background;
      background =
        config.crmportal.mode === "off"
          ? null
          : startCrmSync({
              db,
              upstreamFor: crmUpstream,
              intervalMs: config.crmSync.intervalMs,
              onStart: config.crmSync.onStart,
              archivedEveryMs: config.crmSync.archivedEveryMs,
              log: (line) => log.info(line, { component: "crm-sync" }),
              onRun: (instance, result, seconds) => metrics.syncRun(instance, result.status, seconds),
            });
      return background;
    },
  };
}

// The process's app. The instrumentation hook and the route bundles are compiled apart, and the
// development server reloads modules, so the one instance is kept on globalThis: this is the
// only module that does.
const slot = globalThis as typeof globalThis & { __ddApp?: App };

export function app(): App {
  if (!slot.__ddApp) {
    // Requests are stamped with their peer address before any handler runs (rate limits need it).
    installPeerStamp();
    slot.__ddApp = createApp(processConfig());
  }
  return slot.__ddApp;
}

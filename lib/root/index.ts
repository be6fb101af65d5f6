import "server-only";
import { config as processConfig, type Config } from "@/lib/config";
import type { ReadCache } from "@/lib/cache/read-cache";
import { createSealer, loadKeyMaterial, type Sealer } from "@/lib/crypto/secrets";
import type { Db, OpenDb } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/session";
import { createCredentials, type Credentials } from "@/lib/connectors/credentials";
import { createStandIns, type StandIns } from "@/lib/connectors/stand-ins";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import type { CrmSyncScheduler } from "@/lib/crm/scheduler";
import { crmUpstreamFor, type CrmUpstream } from "@/lib/crm/upstream";
import { apiHandlers } from "@/lib/api";
import { readApiAs, type HandlerServices } from "@/lib/api/api-route";
import { installPeerStamp } from "@/lib/http/peer-stamp";
import type { Playground } from "@/lib/playground/service";
import { demoReadsOf, type DemoReads } from "@/lib/playground/stages";
import { playgroundSettingsOf } from "@/lib/playground/settings";
import type { HumanDeps } from "@/lib/saved/human";
import { newSavedAnalysis, type SavedParamReads, type SavedReads } from "@/lib/saved/trust";
import { newOidcDiscovery, type OidcDiscovery } from "@/lib/signin/oidc";
import { outsideRequestScope, type Logger } from "@/lib/ops/log";
import { createMetrics, type Metrics } from "@/lib/ops/metrics";
import { announcePresence, type Presence } from "@/lib/ops/presence";
import { readiness, type Readiness } from "@/lib/ops/readiness";
import type { RequestEdge } from "@/lib/ops/requests";
import type { Renderer } from "@/lib/renderer";
import { createDrawings, type Drawings } from "@/lib/saved/drawings";
import { createDrawnPictures, type DrawnPictures } from "@/lib/saved/pictures";
import { startOperations } from "./operations";
import { appLogger, openStorage, retried, startCrmBackground, startPlayground, startRenderer } from "./parts";
import { appRoutes, type AppRoutes } from "./routes";

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
// How each larger part starts is in parts.ts, the routes are put together in routes.ts, and the
// production server's operations are started by operations.ts.

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

interface AppOptions {
  /** Storage already open (tests hand in theirs); by default the configured storage is opened and seeded on first use. */
  storage?: OpenDb;
}

export function createApp(config: Config, options: AppOptions = {}): App {
  let sealer: Sealer | undefined;
  const sealerOf = () => (sealer ??= createSealer(loadKeyMaterial(config.secretKey, config.dataDir)));
  const storage = retried(async () => {
    const open = await openStorage(config, sealerOf);
    metrics.statementsFrom(open.statements);
    return open;
  }, options.storage);
  const db = async () => (await storage.get()).db;

  const caches = { answers: newAnswerCache(), vendorReads: newVendorReadCache(config.connectorCache) };
  const { reads: savedReads, params: savedParamReads } = newSavedAnalysis();
  const oidcDiscovery = newOidcDiscovery();
  const standIns = createStandIns({ config, sealer: sealerOf, db });
  const crmUpstream = crmUpstreamFor(config, standIns);
  const credentials = createCredentials({ config, sealer: sealerOf });
  const settings = playgroundSettingsOf(config);
  const log = appLogger(config);
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
    if (renderer === undefined) renderer = outsideRequestScope(() => startRenderer(config, log));
    return renderer;
  };
  // One allowance for the demo API's route and the MCP endpoint's demo reads; it needs no storage.
  const demoReads = demoReadsOf(settings);
  const playground = retried(() =>
    storage
      .get()
      .then((open) => startPlayground(open, config, { settings, sealer: sealerOf, renderer: rendererOf, log, metrics, demoReads }))
      .then((p) => (playgroundNow = p)),
  );
  const playgroundOf = playground.get;

  const services = (): HandlerServices => ({ config, sealer: sealerOf(), ...caches, credentials, crmUpstream });
  const humanDeps = async (): Promise<HumanDeps> => ({ db: await db(), sealer: sealerOf(), publicOrigin: config.publicOrigin });

  // The MCP endpoint reads /api as the person its access token speaks for, and a drawing as its
  // viewer: that person is handed over as such, never read off anything a client sends.
  const readApi = (user: SessionUser, path: string, search: URLSearchParams) => readApiAs({ db, handlers: apiHandlers, services }, user, path, search);
  const drawings = createDrawings({ renderer: rendererOf, readApi, origin: () => `http://127.0.0.1:${config.port}` });
  const drawnPictures = createDrawnPictures({ renderer: rendererOf });

  const readinessOf = () =>
    readiness({
      storage: storage.get,
      listening: async () => (await playgroundOf()).listening(),
    });

  let background: CrmSyncScheduler | null | undefined;
  let operations = false;
  let presence: Promise<Presence> | undefined;

  return {
    config,
    sealer: sealerOf,
    storage: storage.get,
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
    readiness: readinessOf,
    startOperations() {
      if (operations) return;
      operations = true;
      edge = startOperations({
        config,
        log,
        metrics,
        endStreams: async () => playgroundNow?.endStreams() ?? 0,
        close: async () => {
          await background?.stop();
          await renderer?.close();
          await playgroundNow?.close();
          // Last before storage closes: until here the instance still worked on its data.
          await (await presence?.catch(() => undefined))?.stop();
          const open = storage.current();
          if (open) await (await open).close();
        },
      });
    },
    async announce() {
      presence ??= outsideRequestScope(async () =>
        announcePresence(await db(), { log: (line) => log.warn(line, { component: "instances" }) }),
      );
      await presence;
    },
    routes: appRoutes({ config, db, sealer: sealerOf, vendorReads: caches.vendorReads, standIns, playground: playgroundOf, demoReads, humanDeps, services, savedReads, drawings, drawnPictures, readApi, edge: () => edge, oidcDiscovery, metrics, readiness: readinessOf }),
    startBackground() {
      if (background !== undefined) return background;
      background = startCrmBackground(config, { db, crmUpstream, log, metrics });
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

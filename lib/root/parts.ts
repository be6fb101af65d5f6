import "server-only";
import { browserEnvironment, type Config } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import { openDb, type Db, type OpenDb } from "@/lib/db";
import { startCrmSync, type CrmSyncScheduler } from "@/lib/crm/scheduler";
import type { CrmUpstream } from "@/lib/crm/upstream";
import { createPlayground, type Playground } from "@/lib/playground/service";
import type { DemoReads } from "@/lib/playground/stages";
import type { PlaygroundSettings } from "@/lib/playground/settings";
import { seedDemo } from "@/lib/seed";
import { createLogger, outsideRequestScope, type Logger } from "@/lib/ops/log";
import type { Metrics } from "@/lib/ops/metrics";
import { findChromium, Renderer } from "@/lib/renderer";

// How the composition root starts each of its larger parts, from the configuration. Each is
// started on first use, outside any request's log scope, and kept by createApp.

/**
 * A part started on first use and kept while it works: a start that fails is forgotten, so the
 * next use tries again. `current` is what was started, for shutdown, which starts nothing.
 */
export function retried<T>(start: () => Promise<T>, started?: T): { get: () => Promise<T>; current: () => Promise<T> | undefined } {
  let kept: Promise<T> | undefined = started === undefined ? undefined : Promise.resolve(started);
  return {
    get: () =>
      (kept ??= outsideRequestScope(start).catch((err: unknown) => {
        kept = undefined;
        throw err;
      })),
    current: () => kept,
  };
}

/** A terminal is a person reading; anything else is a collector, which expects JSON lines. */
export function appLogger(config: Config): Logger {
  const tty = process.stdout.isTTY === true;
  const format = config.log.format === "auto" ? (tty ? "pretty" : "json") : config.log.format;
  return createLogger({ format, level: config.log.level, colour: format === "pretty" && tty });
}

/** The configured storage, opened, migrated and (for the demo) seeded. */
export async function openStorage(config: Config, sealer: () => Sealer): Promise<OpenDb> {
  const open = await openDb(config.storage);
  if (config.demo.enabled) {
    await seedDemo(open.db, { scale: config.demo.scale, sealer: sealer(), upstreams: config.upstreams, standInTokenTtlMs: config.standInTokenTtlMs });
  }
  return open;
}

/** The service's own browser, or null where no Chromium is found. */
export function startRenderer(config: Config, log: Logger): Renderer | null {
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
}

interface PlaygroundParts {
  settings: PlaygroundSettings;
  sealer: () => Sealer;
  renderer: () => Renderer | null;
  log: Logger;
  metrics: Metrics;
  /** The allowance the demo API's route spends too, so MCP's reads and the HTTP ones are one budget. */
  demoReads: DemoReads;
}

export function startPlayground(open: OpenDb, config: Config, parts: PlaygroundParts): Playground {
  const { log, metrics } = parts;
  return createPlayground(open, {
    settings: parts.settings,
    publicOrigin: config.publicOrigin,
    allowedHosts: config.allowedHosts,
    sealer: parts.sealer(),
    renderer: parts.renderer,
    log: (line) => log.warn(line, { component: "playground" }),
    observe: { refused: metrics.refused, fanout: metrics.fanout },
    demoReads: parts.demoReads,
  });
}

/** The CRM portal sync at start and on an interval, or null when the portal is off. */
export function startCrmBackground(config: Config, parts: { db: () => Promise<Db>; crmUpstream: CrmUpstream; log: Logger; metrics: Metrics }): CrmSyncScheduler | null {
  const { log, metrics } = parts;
  return config.crmportal.mode === "off"
    ? null
    : startCrmSync({
        db: parts.db,
        upstreamFor: parts.crmUpstream,
        intervalMs: config.crmSync.intervalMs,
        onStart: config.crmSync.onStart,
        archivedEveryMs: config.crmSync.archivedEveryMs,
        log: (line) => log.info(line, { component: "crm-sync" }),
        onRun: (instance, result, seconds) => metrics.syncRun(instance, result.status, seconds),
      });
}

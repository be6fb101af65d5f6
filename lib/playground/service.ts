import "server-only";
import { randomBytes } from "node:crypto";
import { PLAYGROUND_BASE, REVISIONS_LIMIT_DEFAULT, type DraftCheck, type DraftCreated, type DraftInput, type DraftUpdate, type DraftUpdated } from "@/lib/contract/playground";
import { createSealer, type Sealer } from "@/lib/crypto/secrets";
import type { OpenDb } from "@/lib/db";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor";
import {
  checkDraftInput,
  createDraft,
  draftExists,
  draftHistoryPage,
  maybeSweep,
  draftContext,
  noSuchDraft,
  readDraftBytes,
  refreshAll,
  refreshWatchers,
  sweepIdle,
  updateDraft,
  type DraftContext,
} from "@/lib/drafts/drafts";
import { serverLog } from "@/lib/http/server-log";
import { createFanout } from "@/lib/live/fanout";
import { Hub, type HubOptions } from "@/lib/live/hub";
import { addressMatcher } from "@/lib/http/client-address";
import { checkStreamCaps, defaultPlaygroundSettings, type PlaygroundSettings } from "./settings";
import { installPeerStamp } from "@/lib/http/peer-stamp";
import { createReports, type Reports } from "@/lib/drafts/reports";
import { createRenders, type Renders } from "@/lib/drafts/renders";
import type { Renderer } from "@/lib/renderer";
import { limiterFor, streamSlots } from "@/lib/limits/shared";
import { draftEvents, type Watch } from "./events";
import { heldAnswers, type HeldJson } from "./held";
import { createStages, demoReadsOf, type DemoReads, type PlaygroundStages, type RevisionsQuery } from "./stages";

// The playground as a service: each operation takes its typed input and answers its typed result
// (or throws the ApiError its refusal is), and none of them sees a Request. Where a request may
// come from, the allowance it spends, and its body and query are the stages before an operation
// (stages.ts), which the route modules (routes.ts) and the MCP tools (lib/agent) run on
// their caller's request and then call the operation here.
//
// Nothing here logs a request URL: write-token URLs are capabilities.

export interface PlaygroundOptions {
  settings?: Partial<PlaygroundSettings>;
  /**
   * PUBLIC_ORIGIN: the origin written into postUrl, watchUrl and eventsUrl. Without it, the
   * request's Host, when it is loopback or the listening address (else 400 untrusted_host).
   */
  publicOrigin?: string;
  /** ALLOWED_HOSTS: names URLs may be written under besides loopback and the listening address. */
  allowedHosts?: readonly string[];
  now?: () => number;
  hub?: HubOptions;
  log?: (line: string) => void;
  /** Signs revision cursors; instances sharing a database must share it. Default: a key of this instance's own. */
  sealer?: Sealer;
  /** The service's own browser for renders (lib/renderer), or null where the deployment has none. */
  renderer?: () => Renderer | null;
  /** Where refusals and fan-out delays are counted (the app's metrics). */
  observe?: PlaygroundObserver;
  /**
   * The demo API's allowance (demoReadsOf), which the app's demo-API route spends too: an MCP
   * caller's demo reads and an HTTP caller's come out of one allowance. Default: one of its own.
   */
  demoReads?: DemoReads;
}

export interface PlaygroundObserver {
  /** A request refused by the named limit or stream cap. */
  refused?(limit: string): void;
  /** Seconds from a revision being written to its frame reaching every watcher here that lacked it. */
  fanout?(seconds: number): void;
}


export interface Playground {
  /** What a caller's request goes through before an operation: origin, allowances, capability shape (stages.ts). */
  readonly stages: PlaygroundStages;
  /** The demo API's allowance, the one the app's demo-API route spends too. */
  readonly demoReads: DemoReads;
  /** POST /draft: a new draft, its URLs written under `origin`. */
  create(input: DraftInput, origin: string): Promise<DraftCreated>;
  /** POST /check: the static check of a draft body; nothing is created or published */
  check(input: DraftInput): DraftCheck;
  /** POST /draft/<write_token> */
  update(writeToken: string, input: DraftUpdate, origin: string): Promise<DraftUpdated>;
  /** GET /draft/<read_id>: the draft as watchers see it (DraftView as JSON text), read by `address`. */
  read(readId: string, address: string): Promise<HeldJson>;
  /** GET /draft/<read_id>/revisions: the kept revisions, newest first, a page at a time, so a page can show what changed. */
  revisions(readId: string, query: RevisionsQuery, address: string): Promise<HeldJson>;
  /** GET /draft/<read_id>/events: the stream of a watcher at `address` that has revision `lastEventId`, started. */
  events(readId: string, address: string, lastEventId: number | null): Promise<Watch>;
  /** POST and GET /draft/<read_id>/reports: what browsers saw rendering a demo draft (reports.ts). */
  readonly reports: Reports;
  /** POST /draft/<read_id>/render and its pictures: the service's own renders (renders.ts). */
  readonly renders: Renders;
  readonly hub: Hub;
  readonly context: DraftContext;
  sweep(): Promise<string[]>;
  /** Whether updates made on other instances reach this one's watchers (starts listening if not yet). */
  listening(): Promise<boolean>;
  /** Shutdown: every open stream is told to reconnect and ended; no new one opens. Answers how many. */
  endStreams(retryMs?: number): number;
  close(): Promise<void>;
}

/** Read ids and write tokens are base64url; anything else cannot be one and answers 404 at once. */
const CAPABILITY_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

export function createPlayground(open: Pick<OpenDb, "db" | "dialect" | "pool">, options: PlaygroundOptions = {}): Playground {
  installPeerStamp();
  const settings: PlaygroundSettings = { ...defaultPlaygroundSettings, ...options.settings };
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => serverLog("warn", line, { component: "playground" }));
  const hub = new Hub({
    ...options.hub,
    onTick: () => {
      maybeSweep(ctx);
      options.hub?.onTick?.();
    },
  });
  const fanout = createFanout(open, {
    onNote: (note) => refreshWatchers(ctx, note),
    onResync: () => refreshAll(ctx),
    log,
  });
  const ctx: DraftContext = draftContext({ db: open.db, hub, fanout, settings, now, log, observeFanout: options.observe?.fanout });
  const sealer = options.sealer ?? createSealer(randomBytes(32));
  const trusted = addressMatcher(settings.trustedProxy);
  // Shared by every instance on PostgreSQL, in memory on SQLite (lib/limits/shared.ts).
  const limiter = (bucket: string, perMinute: number) => limiterFor(open, bucket, perMinute, { now, log });
  checkStreamCaps(settings);
  const refused = (limit: string) => options.observe?.refused?.(limit);
  const stages = createStages({
    publicOrigin: options.publicOrigin,
    allowedHosts: options.allowedHosts,
    trusted,
    limiters: {
      creates: limiter("creates", settings.createsPerMinute),
      // A check costs what checking a creation costs, and creates nothing: the same allowance, apart.
      checks: limiter("checks", settings.createsPerMinute),
      updates: limiter("updates", settings.updatesPerMinute),
      // Anonymous reads cost little each, but nothing else stops one address from asking without end.
      reads: limiter("reads", settings.readsPerMinute),
      reports: limiter("reports", settings.reportsPerMinute),
    },
    noSuchDraft: () => noSuchDraft(settings),
    refused,
  });
  const demoReads = options.demoReads ?? demoReadsOf(settings, now);
  const reports = createReports({ ctx, mac: (v, purpose) => sealer.mac(v, purpose), dialect: open.dialect });
  const renders = createRenders({ ctx, dialect: open.dialect, renderer: options.renderer ?? (() => null), refused });
  const slots = streamSlots(open, { log });
  const held = heldAnswers(settings, now, refused);
  const events = draftEvents({ ctx, hub, fanout, slots, settings, refused });
  const capability = (token: string) => {
    if (!CAPABILITY_SHAPE.test(token)) throw noSuchDraft(settings);
  };

  const urls = (origin: string, id: string) => ({ watchUrl: `${origin}${PLAYGROUND_BASE}/watch/${id}`, eventsUrl: `${origin}${PLAYGROUND_BASE}/draft/${id}/events` });

  return {
    stages,
    demoReads,
    hub,
    context: ctx,
    reports,
    renders,

    async create(input, origin) {
      const created = await createDraft(ctx, input);
      return {
        id: created.id,
        postUrl: `${origin}${PLAYGROUND_BASE}/draft/${created.writeToken}`,
        ...urls(origin, created.id),
        revision: created.revision,
        warnings: created.warnings,
      };
    },

    check: (input) => checkDraftInput(ctx, input),

    async update(writeToken, input, origin) {
      capability(writeToken);
      const updated = await updateDraft(ctx, writeToken, input);
      return { id: updated.id, revision: updated.revision, warnings: updated.warnings, ...urls(origin, updated.id) };
    },

    async read(readId, address) {
      capability(readId);
      return await held(address, () => readDraftBytes(ctx, readId));
    },

    async revisions(readId, query, address) {
      capability(readId);
      if (!(await draftExists(ctx, readId))) throw noSuchDraft(settings);
      // A cursor names the draft it was issued for: another draft's cursor is not one for this draft.
      const purpose = `draft-revisions:${readId}`;
      const before = query.cursor === undefined ? null : decodeCursor(sealer, purpose, query.cursor, isRevisionCursor).before;
      return await held(address, async () => {
        const page = await draftHistoryPage(ctx, readId, query.limit ?? REVISIONS_LIMIT_DEFAULT, before);
        const nextCursor = page.continueBefore === null ? null : encodeCursor(sealer, purpose, { before: page.continueBefore });
        return `{"revisions":[${page.revisions.join(",")}],"nextCursor":${JSON.stringify(nextCursor)}}`;
      });
    },

    async events(readId, address, lastEventId) {
      capability(readId);
      return await events(readId, address, lastEventId);
    },

    sweep: () => sweepIdle(ctx),

    async listening() {
      await fanout.ready();
      return fanout.listening();
    },

    endStreams: (retryMs) => hub.reconnectAll(retryMs),

    async close() {
      hub.close();
      await slots.close();
      await fanout.close();
    },
  };
}

const isRevisionCursor = (v: unknown): v is { before: number } =>
  typeof v === "object" && v !== null && Number.isSafeInteger((v as { before?: unknown }).before) && (v as { before: number }).before >= 1;

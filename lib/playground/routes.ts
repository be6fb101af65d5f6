import "server-only";
import { contentType } from "@/lib/http/body";
import { parseWith, readJsonBody, readTextBody } from "@/lib/http/edge";
import { ApiError } from "@/lib/contract/errors";
import { randomBytes } from "node:crypto";
import {
  DRAFT_HTML_MAX_BYTES,
  PLAYGROUND_BASE,
  REVISIONS_LIMIT_DEFAULT,
  draftInput,
  draftRevisionsQuery,
  draftUpdate,
  type DraftCheck,
  type DraftCreated,
  type DraftInput,
  type DraftUpdate,
  type DraftUpdated,
} from "@/lib/contract/playground";
import type { z } from "zod";
import { sha256Hex } from "@/lib/auth/tokens";
import { createSealer, type Sealer } from "@/lib/crypto/secrets";
import type { OpenDb } from "@/lib/db";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor";
import { notCrossSite, trustedOrigin } from "@/lib/http/origin";
import { json, jsonText } from "@/lib/http/respond";
import {
  checkDraftInput,
  createDraft,
  draftExists,
  draftHistoryPage,
  eventOf,
  findDraft,
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
import type { BodyWriter } from "@/lib/http/after-headers";
import { createFanout } from "@/lib/live/fanout";
import { Hub, type HubOptions } from "@/lib/live/hub";
import { addressMatcher, clientAddress, type AddressMatcher } from "@/lib/http/client-address";
import { ByteBudget, InFlight, RateLimiter, releasingBody, type Take } from "@/lib/limits/buckets";
import { checkStreamCaps, defaultPlaygroundSettings, type PlaygroundSettings } from "./settings";
import { installPeerStamp } from "@/lib/http/origin";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { createReports, type Reports } from "@/lib/drafts/reports";
import { createRenders, type Renders } from "@/lib/drafts/renders";
import type { Renderer } from "@/lib/renderer";
import { limiterFor, streamSlots, type Limiter } from "@/lib/limits/shared";
import { SSE_HEADERS, draftFrame, parseLastEventId } from "@/lib/live/sse";

// The playground's draft routes as plain Request → Response functions; the app's route files
// and the tests' loopback server both call these.
//
// No CORS headers anywhere: agents are not browsers and need none, the editor and watch pages
// are same-origin, and a dashboard running in an opaque-origin frame has no business reading
// drafts. Nothing here logs a request URL: write-token URLs are capabilities.

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
   * The server's edge (lib/ops/requests.ts): an accepted event stream is written straight to its
   * Node response, and the framework's request ends with the headers. Without it (the tests'
   * adapters), or when it declines, the stream is the Response's body.
   */
  writeBodyAfterHeaders?: (request: Request, status: number, writer: BodyWriter) => boolean;
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
  /** POST /draft */
  create(request: Request): Promise<Response>;
  /** POST /check: the static check of a draft body; nothing is created or published */
  check(request: Request): Promise<Response>;
  /** POST /draft/<write_token> */
  update(request: Request, writeToken: string): Promise<Response>;
  /** GET /draft/<read_id> */
  read(request: Request, readId: string): Promise<Response>;
  /** GET /draft/<read_id>/revisions: the kept revisions, newest first, a page at a time, so a page can show what changed. */
  revisions(request: Request, readId: string): Promise<Response>;
  /** GET /draft/<read_id>/events */
  events(request: Request, readId: string): Promise<Response>;
  /** GET /api/<api path>: the demo API (`apiPath` starts with a slash, segments percent-encoded). */
  demoApi(request: Request, apiPath: string): Response;
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
/** JSON escaping can take up to six bytes per byte of html; a body past this cannot hold a draft within the limit. */
export const JSON_BODY_MAX = DRAFT_HTML_MAX_BYTES * 6 + 64 * 1024;
const STREAM_RETRY_AFTER_S = 10;
const STREAMS_REFUSED_HINT = `No more event streams can be opened for you now; close one you have open, or retry in ${STREAM_RETRY_AFTER_S} s.`;

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
  const creates = limiter("creates", settings.createsPerMinute);
  // A check costs what checking a creation costs, and creates nothing: the same allowance, apart.
  const checks = limiter("checks", settings.createsPerMinute);
  const updates = limiter("updates", settings.updatesPerMinute);
  // Anonymous reads cost little each, but nothing else stops one address from asking without end.
  const reads = limiter("reads", settings.readsPerMinute);
  const demoReads = options.demoReads ?? demoReadsOf(settings, now);
  checkStreamCaps(settings);
  const refused = (limit: string) => options.observe?.refused?.(limit);
  /** Takes from a limit; a refusal is 429 with Retry-After, and counted. */
  const limit = async (l: Limiter, bucket: string, key: string, what: string) => {
    const take = await l.take(key);
    if (!take.ok) refused(bucket);
    limited(take, what);
  };
  const guardRead = (request: Request) => limit(reads, "reads", clientAddress(request, trusted), "reads of drafts from your address");
  const reports = createReports({ ctx, mac: (v, purpose) => sealer.mac(v, purpose), dialect: open.dialect, trusted, publicOrigin: options.publicOrigin, guardRead, refused });
  const renders = createRenders({
    ctx,
    dialect: open.dialect,
    renderer: options.renderer ?? (() => null),
    trusted,
    publicOrigin: options.publicOrigin,
    allowedHosts: options.allowedHosts,
    guardRead,
    refused,
  });
  const inFlight = new InFlight();
  const slots = streamSlots(open, { log });
  const readBytes = new ByteBudget(settings.readBytesPerSecond, 3 * settings.readBytesPerSecond, now);
  /** A large answer, written while it holds one of the address's (and the instance's) slots. */
  const heldAnswer = async (request: Request, build: () => Promise<string | Uint8Array>): Promise<Response> => {
    const release = inFlight.enter(clientAddress(request, trusted));
    if (!release) {
      refused("reads_in_flight");
      throw new ApiError("rate_limited", "Too many reads of drafts at once; retry in 1 s.", { "retry-after": "1" });
    }
    try {
      const built = await build();
      const bytes = typeof built === "string" ? new TextEncoder().encode(built) : built;
      const wait = readBytes.take(bytes.byteLength);
      if (wait > 0) {
        refused("read_bytes");
        throw new ApiError("rate_limited", `Large drafts are being read faster than this server sends them; retry in ${wait} s.`, { "retry-after": String(wait) });
      }
      return jsonText(releasingBody(bytes, release));
    } catch (err) {
      release();
      throw err;
    }
  };

  const urls = (origin: string, id: string) => {
    return {
      watchUrl: `${origin}${PLAYGROUND_BASE}/watch/${id}`,
      eventsUrl: `${origin}${PLAYGROUND_BASE}/draft/${id}/events`,
    };
  };

  const guardWrite = (request: Request) => {
    if (!notCrossSite(request, options.publicOrigin)) {
      throw new ApiError("cross_site_write", "Drafts are written by agents and by the playground's own pages, not from other sites.");
    }
  };

  return {
    hub,
    context: ctx,
    reports,
    renders,

    async create(request) {
      guardWrite(request);
      // Before anything is written: the answer's URLs must be ones the server can stand behind.
      const origin = trustedOrigin(request, options.publicOrigin, options.allowedHosts);
      await limit(creates, "creates", clientAddress(request, trusted), "draft creations from your address");
      const input = await readDraftInput(request);
      const created = await createDraft(ctx, input);
      const body: DraftCreated = {
        id: created.id,
        postUrl: `${origin}${PLAYGROUND_BASE}/draft/${created.writeToken}`,
        ...urls(origin, created.id),
        revision: created.revision,
        warnings: created.warnings,
      };
      return json(body, 201);
    },

    async check(request) {
      guardWrite(request);
      await limit(checks, "checks", clientAddress(request, trusted), "checks from your address");
      const body: DraftCheck = checkDraftInput(ctx, await readDraftInput(request));
      return json(body);
    },

    async update(request, writeToken) {
      guardWrite(request);
      const origin = trustedOrigin(request, options.publicOrigin, options.allowedHosts);
      if (!CAPABILITY_SHAPE.test(writeToken)) throw noSuchDraft(settings);
      await limit(updates, "updates", sha256Hex(writeToken), "updates of this draft");
      const input = await readDraftUpdate(request);
      const updated = await updateDraft(ctx, writeToken, input);
      const body: DraftUpdated = { id: updated.id, revision: updated.revision, warnings: updated.warnings, ...urls(origin, updated.id) };
      return json(body);
    },

    async read(request, readId) {
      await guardRead(request);
      if (!CAPABILITY_SHAPE.test(readId)) throw noSuchDraft(settings);
      return await heldAnswer(request, () => readDraftBytes(ctx, readId));
    },

    async revisions(request, readId) {
      await guardRead(request);
      if (!CAPABILITY_SHAPE.test(readId)) throw noSuchDraft(settings);
      const query = revisionsQuery(new URL(request.url).searchParams);
      if (!(await draftExists(ctx, readId))) throw noSuchDraft(settings);
      // A cursor names the draft it was issued for: another draft's cursor is not one for this draft.
      const purpose = `draft-revisions:${readId}`;
      const before = query.cursor === undefined ? null : decodeCursor(sealer, purpose, query.cursor, isRevisionCursor).before;
      return await heldAnswer(request, async () => {
        const page = await draftHistoryPage(ctx, readId, query.limit ?? REVISIONS_LIMIT_DEFAULT, before);
        const nextCursor = page.continueBefore === null ? null : encodeCursor(sealer, purpose, { before: page.continueBefore });
        return `{"revisions":[${page.revisions.join(",")}],"nextCursor":${JSON.stringify(nextCursor)}}`;
      });
    },

    async events(request, readId) {
      await guardRead(request);
      if (!CAPABILITY_SHAPE.test(readId)) throw noSuchDraft(settings);
      // Listening must be in place before the row is read, or an update on another instance
      // between the read and the LISTEN would never arrive.
      await fanout.ready();
      if (hub.closing) throw new ApiError("shutting_down", "This instance is shutting down; reconnect and you reach another.", { "retry-after": "1" });
      const address = clientAddress(request, trusted);
      // The slot held across instances is given back however the stream ends, even while it is taken.
      let ended = false;
      let release: (() => void) | null = null;
      const opened = hub.open(
        readId,
        address,
        { perDraftPerAddress: settings.streamsPerDraft, perAddress: settings.streamsPerAddress, total: settings.streamsTotal },
        () => {
          ended = true;
          release?.();
          release = null;
        },
      );
      // One answer whichever cap was reached and however many watch, so it tells nothing.
      const streamsRefused = () => {
        refused("streams");
        return new ApiError("rate_limited", STREAMS_REFUSED_HINT, { "retry-after": String(STREAM_RETRY_AFTER_S) });
      };
      if (!opened.ok) throw streamsRefused();
      const watch = opened.watch;
      try {
        // The same caps across every instance on the database (the total stays per instance:
        // it bounds this process's memory).
        const slot = await slots.acquire([
          { bucket: "streams_address", key: address, cap: settings.streamsPerAddress },
          { bucket: "streams_draft", key: sha256Hex(`${readId} ${address}`), cap: settings.streamsPerDraft },
        ]);
        if (!slot) throw streamsRefused();
        if (ended) slot();
        else release = slot;
        const row = await findDraft(ctx, readId);
        if (!row) throw noSuchDraft(settings);
        watch.start(row.revision, () => draftFrame(eventOf(row)), parseLastEventId(request.headers.get("last-event-id")));
      } catch (err) {
        watch.close();
        throw err;
      }
      // A stream lives for as long as its watcher: held as the Response's body, it keeps the
      // framework's pipe and the whole request that awaits it (tens of KB) pending all that time.
      const handed =
        request.method === "GET" &&
        (options.writeBodyAfterHeaders?.(request, 200, { begin: (response) => watch.writeTo(response), abandon: () => watch.close() }) ?? false);
      if (handed) return new Response(null, { status: 200, headers: SSE_HEADERS });
      if (request.signal.aborted) watch.close();
      else request.signal.addEventListener("abort", () => watch.close(), { once: true });
      return new Response(watch.stream, { status: 200, headers: SSE_HEADERS });
    },

    demoApi: (request, apiPath) => demoReads.answer(request, apiPath),

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

/** `limit` and `cursor`, each at most once, as the API reads its queries; anything else is invalid_query. */
function revisionsQuery(search: URLSearchParams): { limit?: number; cursor?: string } {
  const raw: Record<string, string> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (key !== "limit" && key !== "cursor") throw new ApiError("invalid_query", `Unrecognized query parameter "${key.slice(0, 40)}"; this takes limit and cursor.`);
    if (values.length > 1) throw new ApiError("invalid_query", `${key} was given ${values.length} times; give it once.`);
    raw[key] = values[0] ?? "";
  }
  // Any cursor the server did not issue, the empty one included, is invalid_cursor.
  if (raw.cursor !== undefined && (raw.cursor === "" || raw.cursor.length > 512)) {
    throw new ApiError("invalid_cursor", "Pass back a nextCursor exactly as this endpoint returned it.");
  }
  return parseWith(draftRevisionsQuery, raw, "invalid_query");
}

function limited(take: Take, what: string): void {
  if (!take.ok) {
    throw new ApiError("rate_limited", `Too many ${what}; retry in ${take.retryAfterSeconds} s.`, {
      "retry-after": String(take.retryAfterSeconds),
    });
  }
}

/** The demo API's answer, after the reader's address has taken from its allowance. */
function demoApiAnswer(request: Request, apiPath: string, limiter: RateLimiter, trusted: AddressMatcher): Response {
  limited(limiter.take(clientAddress(request, trusted)), "demo API reads from your address");
  const { status, body } = demoApiResponse({ path: apiPath, search: new URL(request.url).searchParams });
  return json(body, status, { "cache-control": "no-store" });
}

/** The demo API's allowance of reads per client address. */
export interface DemoReads {
  answer(request: Request, apiPath: string): Response;
}

/** The demo API's allowance; it needs no storage, so it does not wait for the playground (or the database) to start. */
export function demoReadsOf(settings: PlaygroundSettings, now: () => number = Date.now): DemoReads {
  const limiter = new RateLimiter(settings.demoReadsPerMinute, now);
  const trusted = addressMatcher(settings.trustedProxy);
  return { answer: (request, apiPath) => demoApiAnswer(request, apiPath, limiter, trusted) };
}

// ---------------------------------------------------------------------------------------------
// Request bodies

/**
 * A draft from either body form: `application/json` (the draft object) or `text/html` (the HTML
 * itself, with scenario, dash, dataMode and baseRevision in the query string).
 */
async function readDraftInput(request: Request): Promise<DraftInput> {
  return readDraftBody(request, draftInput);
}

/** An update: the same two forms, every field optional (see draftUpdate). */
async function readDraftUpdate(request: Request): Promise<DraftUpdate> {
  return readDraftBody(request, draftUpdate);
}

async function readDraftBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const { essence } = contentType(request);
  if (essence === "application/json") {
    return readJsonBody(request, schema, {
      max: JSON_BODY_MAX,
      tooLarge: tooLarge(JSON_BODY_MAX),
      invalid: "invalid_draft",
      notJson: 'send a JSON object such as {"html": "<!doctype html>…"}, or the HTML itself with Content-Type: text/html.',
    });
  }
  const html = await readTextBody(
    request,
    {
      type: "text/html",
      typeHint: "Send Content-Type: application/json (a draft object) or text/html (the HTML itself; other fields in the query string).",
      max: DRAFT_HTML_MAX_BYTES,
      tooLarge: tooLarge(DRAFT_HTML_MAX_BYTES),
      invalid: "invalid_draft",
    },
    true,
  );
  return parseWith(schema, { ...draftFieldsFromQuery(new URL(request.url).searchParams), html }, "invalid_draft");
}

const tooLarge = (max: number) => ({
  code: "draft_too_large" as const,
  hint: `The body is over ${max} bytes; html may be at most ${DRAFT_HTML_MAX_BYTES} bytes (2 MiB).`,
});

const queryFields = new Set(["scenario", "dash", "dataMode", "baseRevision"]);

function draftFieldsFromQuery(search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (key === "html") throw new ApiError("invalid_draft", "html: with Content-Type text/html the body is the html.");
    if (key === "examples") throw new ApiError("invalid_draft", "examples: send a JSON body to choose examples.");
    if (!queryFields.has(key)) {
      throw new ApiError("invalid_draft", `Unrecognized query parameter "${key.slice(0, 40)}"; with a text/html body the query string takes scenario, dash, dataMode and baseRevision.`);
    }
    if (values.length > 1) throw new ApiError("invalid_draft", `${key}: given ${values.length} times; give it once.`);
    const value = values[0] ?? "";
    // Numbers in a query string are text: a plain integer becomes a number, anything else is
    // refused here in words about the query, not about JSON types.
    if (key === "baseRevision" && !/^[0-9]{1,15}$/.test(value)) {
      throw new ApiError("invalid_draft", `baseRevision: must be a positive integer: the revision you last read (e.g. ?baseRevision=3), not "${value.slice(0, 20)}".`);
    }
    out[key] = key === "baseRevision" ? Number(value) : value;
  }
  return out;
}

import { PLAYGROUND_API_BASE } from "@/lib/contract/playground-limits";
import { LiveGrant } from "@/lib/consent/live";
import {
  BROKER_BODY_MAX,
  BROKER_RATE,
  checkBrokerRequest,
  demoReadPath,
  parseFrameMessage,
  refusalResponse,
  type FetchMessage,
  type HeightNotice,
  type LinkRequest,
  type RenderNotice,
  type ResponseMessage,
  type ScrollNotice,
  type SnapshotNotice,
} from "@/lib/frame/protocol";
import { FRAME_PATH } from "@/lib/frame/bootstrap";
import { decideLink, LinkLedger, type LinkDecision } from "@/lib/frame/links";

// The host side of the frame's only data path: answers reads arriving on its own MessagePort.
// The port is the sender's credential; window "message" events are never listened to, so no
// other window or frame can speak to the broker.

/** The data a read was answered from, as the request log says: a drawing's reads are the viewer's live data. */
export type DataMode = "demo" | "live";
const logMode = (cfg: BrokerConfig): DataMode => (cfg.mode === "demo" ? "demo" : "live");

export interface RequestLogEntry {
  /** The path relative to the API base, or what the dashboard asked for when refused. */
  path: string;
  status: number;
  ms: number;
  mode: DataMode;
  /** Epoch ms at which the answer was sent. */
  at: number;
  /** The request's method, upper case (at most 16 letters). */
  method: string;
  /** Set when the broker refused the request itself, so it never reached the API: why. */
  refused?: { error: string; reason: string };
  /** The error code of a refusal the API answered (its envelope's `error`), when it has one. */
  error?: string;
}

/** Error envelopes are small; a larger body is not read for its code. */
const ENVELOPE_READ_MAX = 4096;
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** The `error` of an API refusal's envelope, or undefined when the body is not one. */
function envelopeCode(status: number, body: string): string | undefined {
  if (status < 400 || body.length > ENVELOPE_READ_MAX) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const code = (parsed as { error?: unknown }).error;
    return typeof code === "string" && ERROR_CODE.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a frame's reads are answered from: the playground's demo API with a scenario and variants,
 * or the viewer's own API through a grant, which only lib/consent/live.ts makes. There is no live
 * data without one, and a grant names the paths it covers.
 */
export type FrameData =
  | { mode: "demo"; scenario?: string; examples?: Record<string, string> }
  | { mode: "live"; grant: LiveGrant }
  /**
   * The service's own drawing of someone else's dashboard, in its contained browser (lib/saved/
   * drawings.ts): reads go to that drawing's reads, which the server answers as the viewer on the
   * paths the code names. The dashboard sees the same API base as on live data.
   */
  | { mode: "drawn"; token: string };

/** The API base a dashboard is given for its data. */
export function apiBaseOf(data: FrameData): string {
  return data.mode === "demo" ? PLAYGROUND_API_BASE : "/api";
}

/** Where a drawing's reads are answered; the token names the drawing and stands for nothing else. */
const drawnReadsBase = (token: string) => `/dashboards/drawn/${encodeURIComponent(token)}/api`;

export type BrokerConfig = FrameData;

interface BrokerOptions {
  /** Read at each request, so a new scenario or set of examples applies without a new channel. */
  config: () => BrokerConfig;
  limiter: RequestLimiter;
  onRequest?: (entry: RequestLogEntry) => void;
  /** A read arrived from the frame; `onRequest` follows once it is answered or refused. */
  onRequestStart?: () => void;
  onNotice?: (notice: ScrollNotice | HeightNotice | SnapshotNotice | RenderNotice) => void;
  /**
   * The frame asked to open a link, with what lib/frame/links.ts says of it against the URLs the
   * answers relayed on this port named. The host still checks its own user activation.
   */
  onLink?: (request: LinkRequest, decision: LinkDecision) => void;
  /** This site's origin, which relative links resolve against (the page's own, by default). */
  origin?: string;
  fetchImpl?: typeof fetch;
  now?: () => number;
}

const UPSTREAM_TIMEOUT_MS = 25_000;
const LOGGED_PATH_MAX = 200;

/**
 * Token bucket plus a cap on concurrent reads, shared by every channel of one frame so a
 * dashboard that reloads itself does not get a fresh allowance each time. Reads past the
 * concurrency cap wait their turn; reads past the bucket, or past a full queue, are refused.
 */
export class RequestLimiter {
  private tokens: number;
  private last: number;
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly perSecond: number = BROKER_RATE.perSecond,
    private readonly burst: number = BROKER_RATE.burst,
    private readonly maxInFlight: number = BROKER_RATE.inFlight,
    private readonly maxQueued: number = BROKER_RATE.queued,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token; false when the caller must be refused. */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1 || this.queue.length >= this.maxQueued) return false;
    this.tokens -= 1;
    return true;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.maxInFlight) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.inFlight++;
    try {
      return await task();
    } finally {
      this.inFlight--;
      this.queue.shift()?.();
    }
  }
}

function upstreamUrl(cfg: BrokerConfig, pathname: string, search: string, endpoint: string): string {
  if (cfg.mode === "live") return `${apiBaseOf(cfg)}${pathname}${search}`;
  if (cfg.mode === "drawn") return `${drawnReadsBase(cfg.token)}${pathname}${search}`;
  return `${PLAYGROUND_API_BASE}${demoReadPath(pathname, search, endpoint, cfg)}`;
}

async function relay(cfg: BrokerConfig, msg: FetchMessage, pathname: string, search: string, endpoint: string, fetchImpl: typeof fetch): Promise<ResponseMessage> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), UPSTREAM_TIMEOUT_MS);
  try {
    const res = await fetchImpl(upstreamUrl(cfg, pathname, search, endpoint), {
      method: msg.method.toUpperCase(),
      headers: { accept: "application/json" },
      // A drawing's reads carry no cookie: its token is the only thing they stand on.
      credentials: cfg.mode === "live" ? "same-origin" : "omit",
      redirect: "error",
      cache: "no-store",
      referrerPolicy: "no-referrer",
      signal: controller.signal,
    });
    const body = await res.text();
    if (body.length > BROKER_BODY_MAX) return refusalResponse(msg.id, 502, "response_too_large", "The answer was too large to hand to the dashboard.");
    return {
      type: "response",
      id: msg.id,
      status: res.status,
      headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
      body,
    };
  } catch {
    return refusalResponse(msg.id, 502, "upstream_unreachable", "The dashboard API could not be reached; try again.");
  } finally {
    clearTimeout(timer);
  }
}

/** A method as the request log names it: upper-case letters, else OTHER. */
function methodName(method: string): string {
  const m = method.toUpperCase();
  return /^[A-Z]{1,16}$/.test(m) ? m : "OTHER";
}

/** Starts answering on `port`; returns the function that stops it and closes the port. */
export function openBroker(port: MessagePort, options: BrokerOptions): () => void {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const now = options.now ?? (() => Date.now());
  let closed = false;
  // Per port, so per document: a dashboard links only to what was answered to it.
  const ledger = new LinkLedger();

  const answer = (msg: ResponseMessage, logged: string, started: number, mode: DataMode, method: string, refused?: { error: string; hint: string }) => {
    if (closed) return;
    port.postMessage(msg);
    const at = now();
    const entry: RequestLogEntry = { path: logged.slice(0, LOGGED_PATH_MAX), status: msg.status, ms: Math.max(0, at - started), mode, at, method: methodName(method) };
    if (refused) entry.refused = { error: refused.error, reason: refused.hint };
    else {
      const code = envelopeCode(msg.status, msg.body);
      if (code !== undefined) entry.error = code;
    }
    options.onRequest?.(entry);
  };

  const handle = (msg: FetchMessage) => {
    const started = now();
    const cfg = options.config();
    const check = checkBrokerRequest(msg.method, msg.path, apiBaseOf(cfg));
    if (!check.ok) {
      answer(refusalResponse(msg.id, check.status, check.error, check.hint), msg.path, started, logMode(cfg), msg.method, check);
      return;
    }
    if (cfg.mode === "live") {
      // Checked at every read, whatever the page's types said: a cast or a copy is no grant.
      const grant: unknown = cfg.grant;
      if (!LiveGrant.isGrant(grant)) {
        const hint = "This frame was given no permission to read live data, so none is served.";
        answer(refusalResponse(msg.id, 403, "live_not_granted", hint), check.path, started, logMode(cfg), msg.method, { error: "live_not_granted", hint });
        return;
      }
      if (!grant.allows(check.pathname)) {
        const paths = grant.paths ?? [];
        const hint = `The viewer agreed to this dashboard reading ${paths.length ? paths.join(", ") : "no API paths"}; ${check.pathname} is not among them. Write each API path the dashboard reads literally in its code.`;
        answer(refusalResponse(msg.id, 403, "read_not_agreed", hint), check.path, started, logMode(cfg), msg.method, { error: "read_not_agreed", hint });
        return;
      }
    }
    if (!options.limiter.take()) {
      const hint = "The dashboard is making too many requests; slow down.";
      answer(refusalResponse(msg.id, 429, "rate_limited", hint), check.path, started, logMode(cfg), msg.method, { error: "rate_limited", hint });
      return;
    }
    void options.limiter
      .run(() => relay(cfg, msg, check.pathname, check.search, check.endpoint, fetchImpl))
      .then((res) => {
        if (res.status >= 200 && res.status < 300) ledger.addAnswer(res.body);
        answer(res, check.path, started, logMode(cfg), msg.method);
      });
  };

  port.onmessage = (event: MessageEvent) => {
    if (closed) return;
    const msg = parseFrameMessage(event.data);
    if (!msg) return;
    if (msg.type === "fetch") {
      options.onRequestStart?.();
      handle(msg);
    } else if (msg.type === "link") {
      const origin = options.origin ?? location.origin;
      options.onLink?.(msg, decideLink(msg.href, ledger, origin, FRAME_PATH));
    } else options.onNotice?.(msg);
  };
  port.start();

  return () => {
    closed = true;
    port.onmessage = null;
    port.close();
  };
}

import { matchRoute } from "@/lib/contract/routes";
import { REPORT_MESSAGE_MAX, REPORT_PATH_MAX, REPORT_REASON_MAX } from "@/lib/contract/report-limits";
import { LINK_URL_MAX } from "./links";
import { isSnapshotTime, snapshotPanel, SNAPSHOT_PANEL_SENT_MAX } from "./snapshot";

export * from "./snapshot";

// The messages between a host page and the sandboxed dashboard frame, and the broker's rule for
// which requests the frame may make. Plain TypeScript shared by the host (browser) and tests.
//
// Everything the frame sends is untrusted: dashboard code runs in the frame's window and can
// reach the port, so the host parses every message here and re-checks every request.

/** Longest request URL the broker relays, query included. */
export const BROKER_PATH_MAX = 2048;
/**
 * How many reads one frame may make, wherever its broker runs (the watch page's, or an MCP App
 * view's relay): a bucket of `burst` refilled at `perSecond`, `inFlight` at once, `queued` waiting.
 */
export const BROKER_RATE = { perSecond: 10, burst: 30, inFlight: 8, queued: 32 } as const;
/** Longest body the broker hands back to a dashboard. */
export const BROKER_BODY_MAX = 8 * 1024 * 1024;

/** Host → frame, once per document, with the broker's MessagePort transferred alongside. */
export interface InitMessage {
  type: "init";
  html: string;
  apiBase: string;
  /** Vertical scroll position to restore, in CSS pixels. */
  scroll?: number;
  /** The address's parameters for the dashboard (`window.DASHBOARD_PARAMS`), parsed by lib/frame/params.ts. */
  params?: Readonly<Record<string, string>>;
}

/** Frame → host over the port: one read. */
export interface FetchMessage {
  type: "fetch";
  id: number;
  method: string;
  path: string;
  headers?: Record<string, string>;
}

/** Host → frame over the port: the answer to one read. */
export interface ResponseMessage {
  type: "response";
  id: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Frame → host over the port: where the reader has scrolled to. */
export interface ScrollNotice {
  type: "scroll";
  y: number;
}

/** The tallest a dashboard may ask its frame to be, in CSS pixels; taller content scrolls inside. */
export const FRAME_HEIGHT_MAX = 20_000;
/** Height notices at most this often: a dashboard that keeps changing size cannot flood the host. */
export const HEIGHT_NOTICE_MS = 100;

/**
 * Frame → host over the port: how tall the dashboard's document is, so a host that sizes the
 * frame to its content lets the page scroll instead of the frame. The host clamps it to
 * [0, FRAME_HEIGHT_MAX] again and never does more with it than set the frame's height.
 */
export interface HeightNotice {
  type: "height";
  height: number;
}

/**
 * Frame → host over the port: the dashboard now shows its embedded snapshot, taken at `takenAt`
 * (ISO-8601, see `SNAPSHOT_TIME`), in the panel named `panel` (the whole dashboard when absent).
 * The bootstrap's `window.dashboardSnapshot(panel)` sends it.
 */
export interface SnapshotNotice {
  type: "snapshot";
  takenAt?: string;
  panel?: string;
}



/**
 * Frame → host over the port, for the render report: an uncaught error (`error`) or a promise
 * rejected with no handler (`rejection`). `line` and `column` are positions in the dashboard's
 * HTML document, from 1, or null when the bootstrap could not place the code that threw.
 */
export interface ErrorNotice {
  type: "error";
  kind: "error" | "rejection";
  message: string;
  line: number | null;
  column: number | null;
}

/** Frame → host: one console.error call, as the console would print it. */
export const CONSOLE_LEVELS = ["log", "info", "warn", "error", "debug"] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

/** Frame → host: a console call of the dashboard's (console.table arrives as a `log` line of text). */
export interface ConsoleNotice {
  type: "console";
  level: ConsoleLevel;
  message: string;
}

/**
 * Frame → host: a request that never reached the broker: a write the fetch shim refused, or
 * something outside fetch (XMLHttpRequest, WebSocket, an image from another site, eval) that the
 * frame's Content-Security-Policy blocked (`method` null then).
 */
export interface RefusalNotice {
  type: "refusal";
  method: string | null;
  path: string;
  error: string;
  reason: string;
}

/**
 * Frame → host over the port: the dashboard asked to open `href` (its link's attribute as
 * written, or what it passed to window.open). The frame opens nothing itself; the host decides
 * with lib/frame/links.ts and its own user activation, and opens it in a new tab or refuses.
 */
export interface LinkRequest {
  type: "link";
  href: string;
  via: "click" | "open";
}

/** Host → frame over the port: answer `painted` with this id once the next frame is painted. */
export interface PaintRequest {
  type: "paint";
  id: number;
}

/** Frame → host: the frame painted after the host's `paint` request with this id. */
export interface PaintedNotice {
  type: "painted";
  id: number;
}

/** What the frame tells the host about a render, for its report. */
export type RenderNotice = ErrorNotice | ConsoleNotice | RefusalNotice | PaintedNotice;

type FrameMessage = FetchMessage | ScrollNotice | HeightNotice | SnapshotNotice | RenderNotice | LinkRequest;

// Control characters other than tab and newline, which a report does not carry.
const REPORT_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Report text from the frame: a string, at most `max` characters, control characters as spaces. */
function reportText(v: unknown, max: number): string | null {
  if (typeof v !== "string") return null;
  return v.slice(0, max).replace(REPORT_CONTROLS, " ");
}

/** A position in the document: null, or a whole number from 1. */
function position(v: unknown): number | null | undefined {
  if (v === null) return null;
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

const REFUSAL_CODE = /^[a-z_]{1,64}$/;
const METHOD_NAME = /^[A-Z]{1,16}$/;

const MAX_HEADERS = 16;
const HEADER_VALUE_MAX = 256;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A message that arrived on the broker's port, or null when it is not one the frame may send. */
export function parseFrameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data)) return null;
  switch (data.type) {
    case "fetch": {
      const { id, method, path, headers } = data;
      if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return null;
      if (typeof method !== "string" || method.length > 16) return null;
      if (typeof path !== "string") return null;
      const out: FetchMessage = { type: "fetch", id, method, path };
      if (headers !== undefined) {
        if (!isRecord(headers)) return null;
        const entries = Object.entries(headers);
        if (entries.length > MAX_HEADERS) return null;
        const clean: Record<string, string> = {};
        for (const [k, v] of entries) {
          if (typeof v !== "string" || k.length > 64 || v.length > HEADER_VALUE_MAX) return null;
          clean[k.toLowerCase()] = v;
        }
        out.headers = clean;
      }
      return out;
    }
    case "scroll":
      return typeof data.y === "number" && Number.isFinite(data.y) && data.y >= 0 ? { type: "scroll", y: data.y } : null;
    case "height":
      return typeof data.height === "number" && Number.isFinite(data.height) && data.height >= 0 && data.height <= FRAME_HEIGHT_MAX
        ? { type: "height", height: Math.ceil(data.height) }
        : null;
    case "snapshot": {
      if (data.takenAt !== undefined && !isSnapshotTime(data.takenAt)) return null;
      const out: SnapshotNotice = { type: "snapshot" };
      if (data.takenAt !== undefined) out.takenAt = data.takenAt;
      if (data.panel !== undefined) {
        if (typeof data.panel !== "string" || data.panel.length > SNAPSHOT_PANEL_SENT_MAX) return null;
        const panel = snapshotPanel(data.panel);
        if (panel !== null) out.panel = panel;
      }
      return out;
    }
    case "error": {
      const message = reportText(data.message, REPORT_MESSAGE_MAX);
      const line = position(data.line);
      const column = position(data.column);
      if (data.kind !== "error" && data.kind !== "rejection") return null;
      if (!message || line === undefined || column === undefined) return null;
      // A column means nothing without its line.
      return { type: "error", kind: data.kind, message, line, column: line === null ? null : column };
    }
    case "console": {
      const message = reportText(data.message, REPORT_MESSAGE_MAX);
      const level = CONSOLE_LEVELS.find((l) => l === data.level);
      return message && level ? { type: "console", level, message } : null;
    }
    case "refusal": {
      const path = reportText(data.path, REPORT_PATH_MAX);
      const reason = reportText(data.reason, REPORT_REASON_MAX);
      const { method, error } = data;
      if (path === null || reason === null || typeof error !== "string" || !REFUSAL_CODE.test(error)) return null;
      if (method !== null && (typeof method !== "string" || !METHOD_NAME.test(method))) return null;
      return { type: "refusal", method, path, error, reason };
    }
    case "link":
      if (typeof data.href !== "string" || data.href.length > LINK_URL_MAX + 1) return null;
      return data.via === "click" || data.via === "open" ? { type: "link", href: data.href, via: data.via } : null;
    case "painted":
      return typeof data.id === "number" && Number.isSafeInteger(data.id) && data.id >= 0 ? { type: "painted", id: data.id } : null;
    default:
      return null;
  }
}

type BrokerCheck =
  | {
      ok: true;
      /** Relative to the API base: pathname and query, e.g. `/crm/customers/companies?limit=5`. */
      path: string;
      /** The pathname alone, e.g. `/crm/customers/companies`. */
      pathname: string;
      /** The query with its `?`, or "". */
      search: string;
      /** The registry pattern the path matched, e.g. `/crm/:instance/companies`. */
      endpoint: string;
    }
  | { ok: false; status: number; error: string; hint: string };

function refuse(status: number, error: string, hint: string): BrokerCheck {
  return { ok: false, status, error, hint };
}

// Resolving against an origin no real request can have makes "same origin" mean "a relative
// URL": anything that names a scheme or host resolves elsewhere and is refused.
const NOTIONAL_ORIGIN = "https://dashboard-frame.invalid";

// C0 controls, space, DEL, C1 controls, and the Unicode line and paragraph separators: the URL
// parser strips or rewrites some of them, so a path holding one is not the path it looks like.
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;
// Encoded dot, slash, backslash or percent in the path: a server or proxy that decodes once more
// would see traversal where the broker saw a plain segment.
const ENCODED_TRAVERSAL = /%(?:2e|2f|5c|25|00)/i;
/** The API base itself: absolute path, no trailing slash, nothing the checks below would refuse. */
const API_BASE_SHAPE = /^(?:\/[A-Za-z0-9_-]+)+$/;
/** Query parameters the playground owns; the draft chooses them, dashboard code never does. */
const RESERVED_QUERY = ["scenario", "variant"];

/**
 * Whether the broker may relay one request from a dashboard. `rawPath` is the URL exactly as the
 * dashboard passed it to fetch: `apiBase + "/me"`, optionally with a query.
 */
export function checkBrokerRequest(method: string, rawPath: string, apiBase: string): BrokerCheck {
  const m = typeof method === "string" ? method.toUpperCase() : "";
  if (m !== "GET" && m !== "HEAD") {
    return refuse(405, "method_not_allowed", "Dashboards only read: the broker relays GET (and HEAD) requests.");
  }
  if (!API_BASE_SHAPE.test(apiBase)) return refuse(500, "invalid_api_base", "The host page configured an invalid API base.");
  if (typeof rawPath !== "string" || rawPath.length === 0) {
    return refuse(400, "invalid_path", `Fetch window.DASHBOARD_API_BASE + "/me" and the like.`);
  }
  if (rawPath.length > BROKER_PATH_MAX) {
    return refuse(400, "invalid_path", `Request URLs are at most ${BROKER_PATH_MAX} characters.`);
  }
  if (UNSAFE_CHARS.test(rawPath)) {
    return refuse(400, "invalid_path", "Control characters, spaces and line separators must be percent-encoded in the query and cannot appear in the path.");
  }
  if (rawPath.includes("\\")) return refuse(400, "invalid_path", "Backslashes are not allowed in API URLs.");
  if (rawPath.includes("#")) return refuse(400, "invalid_path", "Drop the #fragment: it is never sent to the API.");
  const prefix = `${apiBase}/`;
  if (!rawPath.startsWith(prefix)) {
    return refuse(400, "invalid_path", `Only paths under the API base are relayed: fetch(window.DASHBOARD_API_BASE + "/me"), with the base ${apiBase}.`);
  }

  const q = rawPath.indexOf("?");
  const rawPathname = q < 0 ? rawPath : rawPath.slice(0, q);
  if (ENCODED_TRAVERSAL.test(rawPathname)) {
    return refuse(400, "invalid_path", "Encoded dots, slashes, backslashes and percent signs are not allowed in the path.");
  }
  const segments = rawPathname.slice(prefix.length).split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return refuse(400, "invalid_path", "Empty, '.' and '..' path segments are not allowed.");
  }

  let url: URL;
  try {
    url = new URL(rawPath, NOTIONAL_ORIGIN);
  } catch {
    return refuse(400, "invalid_path", "Not a URL.");
  }
  // The parser must have had nothing to normalise: any difference means the dashboard wrote
  // one thing and a server would read another.
  if (url.origin !== NOTIONAL_ORIGIN || url.pathname !== rawPathname || url.hash !== "") {
    return refuse(400, "invalid_path", "The path must be plain: percent-encode path values with encodeURIComponent.");
  }
  const params = new URLSearchParams(url.search);
  const reserved = RESERVED_QUERY.find((k) => params.has(k));
  if (reserved) {
    return refuse(400, "invalid_query", `"${reserved}" belongs to the playground: the draft chooses it, dashboard code never passes it.`);
  }

  const pathname = url.pathname.slice(apiBase.length);
  const match = matchRoute(pathname);
  if (!match) {
    return refuse(404, "not_found", `${pathname} is not an API endpoint; GET /dashboards/playground/endpoints lists them.`);
  }
  // The parsed query, not the raw one, is relayed, so what the server reads is what was checked.
  const search = url.search === "?" ? "" : url.search;
  return { ok: true, path: pathname + search, pathname, search, endpoint: match.route.path };
}

/**
 * A checked demo read's path and query under the demo API's base: the draft's scenario, and the
 * variant its examples force for this path (or for its endpoint's template), added to the query
 * the dashboard sent. The browser's broker and the MCP App's data tool both build it here.
 */
export function demoReadPath(pathname: string, search: string, endpoint: string, data: { scenario?: string; examples?: Readonly<Record<string, string>> }): string {
  const params = new URLSearchParams(search);
  if (data.scenario) params.set("scenario", data.scenario);
  const examples = data.examples ?? {};
  const variant = Object.hasOwn(examples, pathname) ? examples[pathname] : Object.hasOwn(examples, endpoint) ? examples[endpoint] : undefined;
  if (variant) params.set("variant", variant);
  const q = params.toString();
  return `${pathname}${q ? `?${q}` : ""}`;
}

/** The body of a refusal the broker answers itself, in the API's error envelope. */
export function refusalResponse(id: number, status: number, error: string, hint?: string): ResponseMessage {
  return {
    type: "response",
    id,
    status,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(hint ? { error, hint } : { error }),
  };
}

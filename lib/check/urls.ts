import { routes } from "@/lib/contract/routes";

// What a URL written in a dashboard points at. URLs in code are often built from pieces
// (`API + "/crm/" + instance + "/companies"`, template literals); the JavaScript pass flattens
// such an expression to a "shape" in which each non-literal piece is one HOLE character.

export const HOLE = "\u0000";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** First segments of every API path (me, connections, crm, vendors, cx), from the endpoint registry. */
const apiTags = [...new Set(routes.map((e) => e.path.split("/")[1] ?? "").filter(Boolean))];
const API_PATH = new RegExp(`^/(?:${apiTags.map(escapeRe).join("|")})(?=$|[/?#])`);
const API_BASE = /^\/api(?=$|[/?#])/;
const PLAYGROUND_API = /^\/dashboards\/playground\/api(?=$|[/?#])/;
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#\u0000]*/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export type ApiUrlKind =
  /** "/api" or "/api/" alone: the fallback value, right only beside window.DASHBOARD_API_BASE. */
  | "base-only"
  /** "/api/…": the saved page's base written into a path. */
  | "api"
  /** "/dashboards/playground/api…": the playground's base written into a path. */
  | "playground"
  /** "https://host/api/…" or "https://host/cx/…". */
  | "absolute"
  /** "/cx/book" with no base at all: wrong only when it is the whole URL of a request. */
  | "bare-path";

export function classifyApiUrl(shape: string): ApiUrlKind | null {
  if (shape.startsWith(HOLE)) {
    // `location.origin + "/api/me"` hard-codes the base after another value;
    // `API + "/api/me"` puts it in twice. A base followed by a path (`API + "/me"`) is right.
    const rest = shape.replace(/^\u0000+/, "");
    if (PLAYGROUND_API.test(rest)) return "playground";
    if (API_BASE.test(rest)) return rest === "/api" || rest === "/api/" ? "base-only" : "api";
    return null;
  }
  if (PLAYGROUND_API.test(shape)) return "playground";
  if (API_BASE.test(shape)) return shape === "/api" || shape === "/api/" ? "base-only" : "api";
  const abs = ABSOLUTE.exec(shape);
  if (abs) {
    const path = shape.slice(abs[0].length);
    return API_BASE.test(path) || PLAYGROUND_API.test(path) || API_PATH.test(path) ? "absolute" : null;
  }
  return API_PATH.test(shape) ? "bare-path" : null;
}

/** `//host/…`, `https://…`, `wss://…`: another server. */
export function isAbsoluteUrl(shape: string): boolean {
  return ABSOLUTE.test(shape);
}

// A whole address of another site, written out: `https://host/…` or `//host/…`, with no piece
// computed. A link built from data may come out as a URL an answer named; a literal one never does.
const FOREIGN_LINK = /^(?:https?:)?\/\/[^/?#\s\u0000]+(?:[/?#][^\u0000]*)?$/i;

/** Whether a link's address (an href as written) is a hard-coded address of another site. */
export function isForeignLink(shape: string): boolean {
  return FOREIGN_LINK.test(shape.trim());
}

/**
 * Whether a resource URL cannot load in the frame. The frame's policy is `default-src 'none'`
 * with `img-src data: blob:` and `font-src data:`, so for images and fonts only data: and
 * blob: URLs load, and for everything else nothing does. Fragment references (`#icon`) and
 * about:blank are not loads.
 */
export function isBlockedResource(url: string, dataAllowed: boolean): boolean {
  const u = url.trim();
  if (u === "" || u.startsWith("#") || u.startsWith(HOLE)) return false;
  const scheme = SCHEME.exec(u)?.[0].toLowerCase();
  if (scheme === "about:" || scheme === "javascript:") return false;
  if (dataAllowed && (scheme === "data:" || scheme === "blob:")) return false;
  return true;
}

/** Paged endpoints from the registry, as patterns over URL shapes. */
const pagedPatterns = routes
  .filter((e) => "pagedList" in e && e.pagedList !== undefined)
  .map((e) => ({
    path: e.path,
    regex: new RegExp(
      `${e.path
        .split("/")
        .map((s) => (s.startsWith(":") ? "[^/?#]+" : escapeRe(s)))
        .join("/")}(?=$|[?#${HOLE}])`,
    ),
  }));

export function pagedEndpoint(shape: string): string | null {
  for (const p of pagedPatterns) if (p.regex.test(shape)) return p.path;
  return null;
}

export const PAGED_PATHS: readonly string[] = pagedPatterns.map((p) => p.path);

/** A query string (or a piece of one) that sets `scenario`. */
export const SCENARIO_PARAM = /(?:^|[?&])scenario=/;
/** A query string (or a piece of one) that asks for `basis=activity`. */
export const ACTIVITY_BASIS = /(?:^|[?&])basis=activity(?=$|[&#\u0000])/;

export function readsCx(shape: string): boolean {
  return /(?:^|\/|\u0000)cx\/(?:book|districts|owners|\u0000)(?=$|[/?#\u0000])/.test(shape);
}

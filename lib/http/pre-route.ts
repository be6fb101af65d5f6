import { errorResponse } from "./respond";

// What proxy.ts does before any route runs with requests the framework would otherwise answer
// itself: a path whose percent-encoding does not decode (the framework fails decoding route
// parameters: 500 text/plain), a trailing slash (a 308 whose body is the new address as text),
// and a path under a JSON area that no route answers (the HTML not-found page, or for a form
// post a server-action refusal in text/plain).

/** The playground's addresses that are pages or text, not JSON routes: the editor (and a draft's own address in it), the watch page, llms.txt. */
const PLAYGROUND_PAGES = /^\/dashboards\/playground(?:\/(?:watch|d)(?:\/.*)?|\/llms\.txt)?$/;

/**
 * Whether the route at `pathname` answers JSON, refusals included: the API, the playground's
 * routes, /account, the save route and its refusal, the source of a saved dashboard, and any
 * method but GET and HEAD on a saved dashboard's address (the save endpoint).
 */
export function isJsonPath(pathname: string, method: string): boolean {
  if (pathname === "/api" || pathname.startsWith("/api/")) return true;
  if (pathname === "/account" || pathname.startsWith("/account/")) return true;
  if (pathname === "/healthz" || pathname === "/readyz") return true;
  if (pathname === "/openapi.json" || pathname === "/dashboards/save" || pathname.startsWith("/dashboards/save/")) return true;
  if (pathname.startsWith("/dashboards/playground/")) return !PLAYGROUND_PAGES.test(pathname);
  if (/^\/~\/[^/]+\/[^/]+\/source$/.test(pathname)) return true;
  return /^\/~\/[^/]+\/[^/]+$/.test(pathname) && method !== "GET" && method !== "HEAD";
}

/**
 * Areas where every address is a JSON route, and the routes there. Anything else in such an
 * area is not found, answered as the envelope. (lib/http/pre-route.test.ts checks these against
 * the route files under app/.)
 */
const CLOSED_AREAS = [/^\/account(?:\/.*)?$/, /^\/dashboards\/playground\/.+$/];
const JSON_ROUTES = [
  /^\/account\/(?:favourites|home|trust)$/,
  /^\/dashboards\/playground\/api(?:\/.*)?$/,
  /^\/dashboards\/playground\/(?:check|endpoints|mcp|scenarios)$/,
  /^\/dashboards\/playground\/draft(?:\/[^/]+(?:\/(?:events|revisions|reports))?)?$/,
];

function unknownJsonRoute(pathname: string): boolean {
  if (PLAYGROUND_PAGES.test(pathname)) return false;
  return CLOSED_AREAS.some((a) => a.test(pathname)) && !JSON_ROUTES.some((r) => r.test(pathname));
}

/** The first path segment whose percent-encoding does not decode to UTF-8 text, or null. */
export function undecodableSegment(pathname: string): string | null {
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return null;
}

function clip(s: string, n = 80): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/**
 * What the edge does with a request: answer it, or route it (to `pathname`, which differs from
 * the request's when a trailing slash was dropped). `url` is the request's, percent-encoding
 * intact.
 *
 * A trailing slash on a JSON route is served as the address without it: the framework's answer
 * was a 308 whose body is the new address as text, and a proxy cannot send a redirect with a
 * body of its own (the framework replaces it with the same text). Serving the address keeps
 * every client that followed that redirect working, method and body included. Pages keep the
 * redirect, so a page has one address.
 */
export function atEdge(method: string, url: URL): { answer: Response } | { pathname: string } {
  let { pathname } = url;
  const bad = undecodableSegment(pathname);
  if (bad !== null) {
    return { answer: errorResponse("invalid_path", `The path segment "${clip(bad)}" is not valid percent-encoded UTF-8.`) };
  }
  if (pathname.length > 1 && pathname.endsWith("/")) {
    const bare = pathname.slice(0, -1);
    if (!isJsonPath(bare, method)) {
      // An absolute Location, as the framework wants of a proxy; it sends it on relative.
      return { answer: new Response(null, { status: 308, headers: { location: new URL(`${bare}${url.search}`, url).href } }) };
    }
    pathname = bare;
  }
  if (unknownJsonRoute(pathname)) {
    const hint = pathname.startsWith("/account") ? "/account takes POST at favourites, home and trust." : "See /dashboards/playground/llms.txt for the playground's routes.";
    return { answer: errorResponse("not_found", hint) };
  }
  return { pathname };
}

import { errorResponse } from "./respond";

// What proxy.ts does before any route runs with requests the framework would otherwise answer
// itself: a path whose percent-encoding does not decode (the framework fails decoding route
// parameters: 500 text/plain), a trailing slash (a 308 whose body is the new address as text),
// and a path under a JSON area that no route answers (the HTML not-found page, or for a form
// post a server-action refusal in text/plain).

/** The playground's addresses that are pages or text, not JSON routes: the editor (and a draft's own address in it), the watch page, llms.txt. */
const PLAYGROUND_PAGES = /^\/dashboards\/playground(?:\/(?:watch|d|render)(?:\/.*)?|\/llms(?:-full)?\.txt)?$/;

/**
 * Whether the route at `pathname` answers JSON, refusals included: the API, the playground's
 * routes, the account actions under /account/ (/account itself is a page), the save route and its refusal, the source of a saved dashboard, and any
 * method but GET and HEAD on a saved dashboard's address (the save endpoint).
 */
export function isJsonPath(pathname: string, method: string): boolean {
  if (pathname === "/api" || pathname.startsWith("/api/")) return true;
  if (pathname.startsWith("/account/")) return true;
  if (pathname === "/healthz" || pathname === "/readyz") return true;
  if (pathname === "/oauth/register" || pathname === "/oauth/token" || pathname === "/oauth/revoke" || pathname === "/oauth/connected-apps" || pathname.startsWith("/.well-known/oauth-")) return true;
  if (pathname === "/openapi.json" || pathname === "/dashboards/save" || pathname.startsWith("/dashboards/save/")) return true;
  if (pathname.startsWith("/dashboards/playground/")) return !PLAYGROUND_PAGES.test(pathname);
  if (/^\/~\/[^/]+\/[^/]+\/(?:source|drawn|drawn\.png)$/.test(pathname)) return true;
  if (/^\/dashboards\/drawn\/[^/]+\/api(?:\/.*)?$/.test(pathname)) return true;
  return /^\/~\/[^/]+\/[^/]+$/.test(pathname) && method !== "GET" && method !== "HEAD";
}

/**
 * Areas where every address is a JSON route, and the routes there. Anything else in such an
 * area is not found, answered as the envelope. (lib/http/pre-route.test.ts checks these against
 * the route files under app/.)
 */
const CLOSED_AREAS = [/^\/account\/.+$/, /^\/dashboards\/playground\/.+$/];
const JSON_ROUTES = [
  /^\/account\/(?:favourites|home|trust|snapshots)$/,
  /^\/dashboards\/playground\/api(?:\/.*)?$/,
  /^\/dashboards\/playground\/(?:check|endpoints|mcp|scenarios)$/,
  /^\/dashboards\/playground\/draft(?:\/[^/]+(?:\/(?:events|revisions|reports|render|drawn))?)?$/,
  /^\/dashboards\/playground\/draft\/[^/]+\/render\/[^/]+$/,
];

function unknownJsonRoute(pathname: string): boolean {
  if (PLAYGROUND_PAGES.test(pathname)) return false;
  return CLOSED_AREAS.some((a) => a.test(pathname)) && !JSON_ROUTES.some((r) => r.test(pathname));
}

/**
 * Every route handler's addresses and the methods its defineRoute answers (e2e/edges.spec.ts holds
 * each to what the server says to OPTIONS, and lib/http/pre-route.test.ts to the route files).
 * Any other address is a page, which answers GET and HEAD.
 */
const ROUTE_METHODS: readonly (readonly [RegExp, string])[] = [
  [/^\/api(?:\/.*)?$/, "GET, HEAD"],
  [/^\/account\/(?:favourites|home|trust|snapshots)$/, "POST"],
  [/^\/bench-baseline$/, "GET, HEAD"],
  [/^\/connections\/[^/]+\/.+$/, "GET, HEAD, POST"],
  [/^\/dashboards\/frame$/, "GET, HEAD"],
  [/^\/dashboards\/playground\/api(?:\/.*)?$/, "GET, HEAD"],
  [/^\/dashboards\/playground\/(?:check|draft|mcp)$/, "POST"],
  [/^\/dashboards\/playground\/(?:endpoints|scenarios|llms\.txt|llms-full\.txt)$/, "GET, HEAD"],
  [/^\/dashboards\/playground\/draft\/[^/]+(?:\/reports)?$/, "GET, HEAD, POST"],
  [/^\/dashboards\/playground\/draft\/[^/]+\/(?:events|revisions|drawn)$/, "GET, HEAD"],
  [/^\/dashboards\/playground\/draft\/[^/]+\/render$/, "POST"],
  [/^\/dashboards\/playground\/draft\/[^/]+\/render\/[^/]+$/, "GET, HEAD"],
  [/^\/dashboards\/save(?:\/.*)?$/, "GET, HEAD, POST"],
  [/^\/docs\/(?:[^/]+\.(?:md|json)|md\/[^/]+)$/, "GET, HEAD"],
  [/^\/(?:healthz|readyz|metrics|openapi\.json)$/, "GET, HEAD"],
  [/^\/signin\/(?:callback|oidc)$/, "GET, HEAD"],
  [/^\/\.well-known\/oauth-protected-resource(?:\/.*)?$/, "GET, HEAD, OPTIONS"],
  [/^\/\.well-known\/oauth-authorization-server$/, "GET, HEAD, OPTIONS"],
  [/^\/oauth\/(?:register|token|revoke)$/, "POST, OPTIONS"],
  [/^\/oauth\/connected-apps$/, "POST"],
  [/^\/oauth\/authorize$/, "GET, HEAD, POST"],
  [/^\/(?:signin\/demo|signout)$/, "POST"],
  [/^\/stand-ins\/[^/]+(?:\/.*)?$/, "GET, HEAD, POST"],
  [/^\/test-fault$/, "GET, HEAD"],
  [/^\/~\/[^/]+\/[^/]+\/(?:source|drawn|drawn\.png)$/, "GET, HEAD"],
  [/^\/dashboards\/drawn\/[^/]+\/api(?:\/.*)?$/, "GET, HEAD"],
  // A snapshot: its page for a browser, JSON otherwise (lib/saved/snapshot-routes.ts).
  [/^\/snapshots\/[^/]+(?:\/picture\.png)?$/, "GET, HEAD"],
  // The page answers GET; the save route, POST.
  [/^\/~\/[^/]+\/[^/]+$/, "GET, HEAD, POST"],
];

/** The page that shows what each account action changes. */
const ACCOUNT_ACTION_PAGES: Record<string, string> = {
  "/account/favourites": "/account#favourites",
  "/account/home": "/account#home",
  "/account/trust": "/account#trusted-authors",
  "/account/snapshots": "/account#snapshots",
};

/**
 * A browser that opens an account action's address (a link, the address bar, a form's address
 * after a failure) is sent to the page for it, 303; anything not asking for HTML still gets the
 * route's own 405 envelope.
 */
export function accountPageFor(pathname: string, method: string, accept: string | null): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const page = Object.hasOwn(ACCOUNT_ACTION_PAGES, pathname) ? ACCOUNT_ACTION_PAGES[pathname] : undefined;
  return page && /(?:^|,)\s*text\/html\b/i.test(accept ?? "") ? page : null;
}

/** The methods the route at `pathname` answers, and whether it is a route handler (else a page). */
export function methodsAt(pathname: string): { allow: string; route: boolean } {
  for (const [pattern, allow] of ROUTE_METHODS) if (pattern.test(pathname)) return { allow, route: true };
  return { allow: "GET, HEAD", route: false };
}

/** The methods every route's defineRoute takes and refuses itself, with its own words. */
const STANDARD_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

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
    const hint = pathname.startsWith("/account") ? "/account takes POST at favourites, home, trust and snapshots." : "See /dashboards/playground/llms.txt for the playground's routes.";
    return { answer: errorResponse("not_found", hint) };
  }
  // A method no route takes (PROPFIND, TRACE…) gets the framework's empty 400 or a 500, and a page
  // answers any method with itself: both are the 405 envelope here. A route handler refuses the
  // standard methods it does not take itself, in its own words.
  const { allow, route } = methodsAt(pathname);
  if (!STANDARD_METHODS.has(method) || (!route && method !== "GET" && method !== "HEAD")) {
    const hint = `${clip(method, 20)} is not a method this address answers; it answers ${allow}.`;
    return { answer: errorResponse("method_not_allowed", hint, { allow }) };
  }
  return { pathname };
}

import { NextResponse, type NextRequest } from "next/server";
import { config as appConfig } from "@/lib/config";
import { hostBelieved, UNTRUSTED_HOST_HINT } from "@/lib/http/hosts";
import { stampedLocalAddress, stampedMethod } from "@/lib/http/peer-stamp";
import { accountPageFor, atEdge, isJsonPath } from "@/lib/http/pre-route";
import { pagePolicy, setsOwnPolicy } from "@/lib/http/page-policy";
import { errorResponse } from "@/lib/http/respond";

// Every request but the build's static files passes here first.
//
// 0. The Host: a name the server was not told of is refused (lib/http/hosts.ts), so a page on
//    another site whose name resolves here (DNS rebinding) reaches no route, page or session.
// 1. The edge (lib/http/edge.ts): a path that does not decode and an unknown address under a
//    JSON area are answered here with the error envelope, before the framework can answer a 500
//    or an HTML page; a JSON route's address with a trailing slash is served as the address
//    without it.
// 2. `/~/<handle>/<slug>` is a page for GET and the save endpoint for POST; the framework cannot
//    put a page and a route handler on one path, so writes are rewritten to the save route here.
//    That route is reachable only this way: asked for directly, it is not found.
// 3. What passes on gets the page Content-Security-Policy, unless its route sends its own
//    (lib/http/page-policy.ts).

const SAVE_ROUTE = "/dashboards/save/";
const SAVE_AREA = /^\/dashboards\/save(?:\/|$)/;

function rewriteTo(request: NextRequest, pathname: string, search: string): NextResponse {
  const target = request.nextUrl.clone();
  target.pathname = pathname;
  target.search = search;
  return NextResponse.rewrite(target);
}

let policy: string | undefined;

export function proxy(request: NextRequest): Response {
  const cfg = appConfig();
  if (!hostBelieved(request.headers.get("host"), request.nextUrl.protocol, stampedLocalAddress(request), cfg)) {
    return errorResponse("untrusted_host", UNTRUSTED_HOST_HINT);
  }
  const edge = atEdge(stampedMethod(request), request.nextUrl);
  if ("answer" in edge) return edge.answer;
  const res = route(request, edge.pathname);
  if (res instanceof NextResponse && !setsOwnPolicy(edge.pathname)) {
    policy ??= pagePolicy(cfg.upstreams);
    res.headers.set("content-security-policy", policy);
  }
  return res;
}

function route(request: NextRequest, pathname: string): Response {
  const accountPage = accountPageFor(pathname, request.method, request.headers.get("accept"));
  if (accountPage) return NextResponse.redirect(new URL(accountPage, request.nextUrl), 303);
  if (SAVE_AREA.test(pathname)) {
    return errorResponse("not_found", "Save with POST /~/<handle>/<slug>.");
  }
  const m = /^\/~\/([^/]+)\/([^/]+)$/.exec(pathname);
  if (m && request.method !== "GET" && request.method !== "HEAD") {
    return rewriteTo(request, `${SAVE_ROUTE}${m[1]}/${m[2]}`, "");
  }
  // A JSON route is routed to exactly the address checked here: the framework routes some
  // spellings (a trailing slash; dot segments next to a segment starting with a dot, when there
  // is a query) otherwise than it parses them, and would answer its HTML not-found page.
  if (isJsonPath(pathname, request.method)) return rewriteTo(request, pathname, request.nextUrl.search);
  return NextResponse.next();
}

// Everything but the build's static files: a malformed path or a trailing slash can be anywhere.
export const config = { matcher: ["/((?!_next/static/|_next/image|favicon\\.ico$).*)"] };

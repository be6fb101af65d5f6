import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "@/lib/http/respond";

// `/~/<handle>/<slug>` is a page for GET and the save endpoint for POST; the framework cannot
// put a page and a route handler on one path, so writes are rewritten to the save route here.
// That route is reachable only this way: asked for directly, it is not found.

const SAVE_ROUTE = "/dashboards/save/";

export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith(SAVE_ROUTE)) {
    return errorResponse("not_found", "Save with POST /~/<handle>/<slug>.");
  }
  const m = /^\/~\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
  if (m && request.method !== "GET" && request.method !== "HEAD") {
    const target = request.nextUrl.clone();
    target.pathname = `${SAVE_ROUTE}${m[1]}/${m[2]}`;
    target.search = "";
    return NextResponse.rewrite(target);
  }
  return NextResponse.next();
}

export const config = { matcher: ["/~/:path*", "/dashboards/save/:path*"] };

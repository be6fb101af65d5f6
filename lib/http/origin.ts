import "server-only";
import { ApiError } from "@/lib/contract/errors";
import { hostBelieved, UNTRUSTED_HOST_HINT } from "./hosts";
import { stampedLocalAddress } from "./peer-stamp";

// Cross-site request checks for state-changing routes, and the origin the server hands out in
// URLs (capability URLs, OAuth redirect URIs, documents that name the server).

/**
 * The origin to write into URLs this server hands out. PUBLIC_ORIGIN when it is set. Otherwise
 * the Host the request names, but only when the server can believe it (lib/http/hosts.ts): a
 * loopback host (127.0.0.0/8, localhost, [::1]; any port), exactly the address and port the
 * connection reached, or a name in ALLOWED_HOSTS. Any other Host could be a forgery (a client
 * sets it freely, and DNS rebinding points a foreign name at a local server), and would put that
 * name into capability URLs and OAuth redirect URIs, so it is refused: 400 `untrusted_host`.
 * (proxy.ts refuses such a request before any route runs; this holds where it is not in front.)
 */
export function trustedOrigin(request: Request, publicOrigin?: string, allowedHosts: readonly string[] = []): string {
  if (publicOrigin) return publicOrigin;
  const url = new URL(request.url);
  const host = (request.headers.get("host") ?? url.host).toLowerCase();
  if (hostBelieved(host, url.protocol, stampedLocalAddress(request), { allowedHosts })) return `${url.protocol}//${host}`;
  throw new ApiError("untrusted_host", UNTRUSTED_HOST_HINT);
}

/**
 * trustedOrigin for a page, which has its request's headers and no request: the origin a page
 * writes into absolute URLs of its own (a link preview's picture), or null when the Host cannot
 * be believed (the page then names no such URL).
 */
export function pageOrigin(headers: Headers, publicOrigin?: string, allowedHosts: readonly string[] = []): string | null {
  if (publicOrigin) return publicOrigin;
  const host = headers.get("host")?.toLowerCase() ?? null;
  return host && hostBelieved(host, "http:", stampedLocalAddress({ headers }), { allowedHosts }) ? `http://${host}` : null;
}

/**
 * The origin this request was addressed to, as the browser saw it. The framework's request URL
 * names the server's own host, not the one the browser used, so the Host header decides;
 * deployments behind a proxy set PUBLIC_ORIGIN.
 */
export function requestOrigin(request: Request, publicOrigin?: string): string {
  if (publicOrigin) return publicOrigin;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host && /^[a-z0-9.:[\]-]+$/i.test(host) ? `${url.protocol}//${host}` : url.origin;
}

/**
 * True unless a browser says the request came from another site. Sec-Fetch-Site decides when
 * present: pages sent with `Referrer-Policy: no-referrer` make browsers send `Origin: null` even
 * on same-origin form posts. Requests from non-browser clients carry neither header and cannot
 * be forged by a page, so they pass.
 */
export function notCrossSite(request: Request, publicOrigin?: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  if (origin) return origin === requestOrigin(request, publicOrigin);
  return true;
}

/** True only for a browser request from one of our own pages (stricter: both signals required). */
export function sameOriginBrowserRequest(request: Request, publicOrigin?: string): boolean {
  return (
    request.headers.get("sec-fetch-site") === "same-origin" &&
    request.headers.get("origin") === requestOrigin(request, publicOrigin)
  );
}

/** A same-site path to return to after sign-in; anything else becomes "/". */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2048) return "/";
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(next)) return "/";
  return next;
}

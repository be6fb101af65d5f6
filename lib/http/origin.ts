import "server-only";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { ApiError } from "@/lib/contract/errors";
import { hostBelieved, hostOf, UNTRUSTED_HOST_HINT } from "./hosts";

// Cross-site request checks for state-changing routes, and the origin the server hands out in
// URLs (capability URLs, OAuth redirect URIs, documents that name the server).

/**
 * The header that carries the address and port the connection reached (`host:port`, IPv6 in
 * brackets) to route handlers. Written on every request by the same diagnostics-channel hook that
 * stamps the peer address (lib/http/client-address.ts), replacing whatever a client sent.
 */
export const LOCAL_ADDRESS_HEADER = "x-dd-local-address";

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

/** The address and port the connection was accepted on, when the server stamped it (a client could send the header itself otherwise). */
export function stampedLocalAddress(request: { headers: Headers }): string | null {
  return peerStampInstalled() ? request.headers.get(LOCAL_ADDRESS_HEADER) : null;
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

/**
 * The header that carries the TCP peer's address to route handlers. Route handlers cannot see
 * the socket, so the HTTP server's request-start diagnostics channel, which runs before any
 * handler, writes it on every request, replacing whatever a client sent under that name.
 */
export const PEER_HEADER = "x-dd-peer-address";

// The stamp is a subscription of the whole process (diagnostics channels are per process), made
// once by the composition root; the instrumentation hook and the route bundles are compiled
// apart, so whether it is in place is known process-wide.
// eslint-disable-next-line no-restricted-syntax -- process-wide by nature, see above
const stampHolder = globalThis as typeof globalThis & { __ddPeerStamp?: boolean };

/** Whether this process stamps its requests: only then is a stamped header the server's own word. */
export function peerStampInstalled(): boolean {
  return stampHolder.__ddPeerStamp === true;
}

/**
 * The header that carries a request's method when it is one the server's Request objects cannot
 * hold (the fetch standard forbids TRACE, TRACK and CONNECT, and the framework fails on them with
 * a 500): the stamp renames such a request OPTIONS, which every route refuses, and names the real
 * method here, replacing whatever a client sent under that name, so proxy.ts refuses it by name.
 */
const FORBIDDEN_METHOD_HEADER = "x-dd-forbidden-method";
const FORBIDDEN_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

/** The method a request really had, where the stamp had to rename it (see FORBIDDEN_METHOD_HEADER). */
export function stampedMethod(request: { method: string; headers: Headers }): string {
  return (peerStampInstalled() ? request.headers.get(FORBIDDEN_METHOD_HEADER) : null) ?? request.method;
}

/** Stamps every HTTP request this process serves with its peer address and local address. Idempotent. */
export function installPeerStamp(): void {
  if (stampHolder.__ddPeerStamp) return;
  stampHolder.__ddPeerStamp = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request?: IncomingMessage; socket?: net.Socket };
    if (!request) return;
    const address = socket?.remoteAddress ?? request.socket?.remoteAddress;
    if (address) request.headers[PEER_HEADER] = address;
    else delete request.headers[PEER_HEADER];
    // The address and port the connection reached: a Host naming exactly these is believed.
    const local = socket ?? request.socket;
    if (local?.localAddress && local.localPort) request.headers[LOCAL_ADDRESS_HEADER] = hostOf(local.localAddress, local.localPort);
    else delete request.headers[LOCAL_ADDRESS_HEADER];
    delete request.headers[FORBIDDEN_METHOD_HEADER];
    if (request.method && FORBIDDEN_METHODS.has(request.method)) {
      request.headers[FORBIDDEN_METHOD_HEADER] = request.method;
      request.method = "OPTIONS";
    }
  });
}

import "server-only";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { ApiError } from "@/lib/contract/errors";

// Cross-site request checks for state-changing routes, and the origin the server hands out in
// URLs (capability URLs, OAuth redirect URIs, documents that name the server).

/**
 * The header that carries the address and port the connection reached (`host:port`, IPv6 in
 * brackets) to route handlers. Written on every request by the same diagnostics-channel hook that
 * stamps the peer address (lib/playground/limits.ts), replacing whatever a client sent.
 */
export const LOCAL_ADDRESS_HEADER = "x-dd-local-address";

/** `address:port` as a Host header names it: IPv6 in brackets, IPv4-mapped IPv6 as IPv4. */
export function hostOf(address: string, port: number): string {
  const a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)?.[1];
  if (mapped) return `${mapped}:${port}`;
  return net.isIP(a) === 6 ? `[${a}]:${port}` : `${a}:${port}`;
}

const HOST_SHAPE = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::([0-9]{1,5}))?$/;

/** A Host header split into its name and port (the scheme's default when absent), or null when it is not one. */
function parseHost(host: string, protocol: string): { name: string; port: number; v6: boolean } | null {
  const m = HOST_SHAPE.exec(host.toLowerCase());
  if (!m) return null;
  const port = m[3] === undefined ? (protocol === "https:" ? 443 : 80) : Number(m[3]);
  if (port < 1 || port > 65535) return null;
  if (m[1] !== undefined) return net.isIP(m[1]) === 6 ? { name: m[1], port, v6: true } : null;
  return { name: m[2] ?? "", port, v6: false };
}

const loopback = new net.BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

function isLoopbackName(name: string, v6: boolean): boolean {
  if (v6) return loopback.check(name, "ipv6");
  if (name === "localhost") return true;
  return net.isIP(name) === 4 && loopback.check(name, "ipv4");
}

/**
 * The origin to write into URLs this server hands out. PUBLIC_ORIGIN when it is set. Otherwise
 * the Host the request names, but only when the server can believe it: a loopback host
 * (127.0.0.0/8, localhost, [::1]; any port) or exactly the address and port the connection
 * reached. Any other Host could be a forgery (a client sets it freely, and DNS rebinding points
 * a foreign name at a local server), and would put that name into capability URLs and OAuth
 * redirect URIs, so it is refused: 400 `untrusted_host`.
 */
export function trustedOrigin(request: Request, publicOrigin?: string): string {
  if (publicOrigin) return publicOrigin;
  const url = new URL(request.url);
  const host = (request.headers.get("host") ?? url.host).toLowerCase();
  const parsed = parseHost(host, url.protocol);
  if (parsed && (isLoopbackName(parsed.name, parsed.v6) || sameAsListening(request, parsed))) return `${url.protocol}//${host}`;
  throw new ApiError(
    "untrusted_host",
    "This server does not hand out URLs under that Host. Reach it at a loopback address or at the address it listens on, or have its operator set PUBLIC_ORIGIN.",
  );
}

/** Whether the Host names the very address and port the connection was accepted on. */
function sameAsListening(request: Request, host: { name: string; port: number; v6: boolean }): boolean {
  // Only a stamped header is the server's own word; without the stamp, a client could send it.
  if (!peerStampInstalled()) return false;
  const local = request.headers.get(LOCAL_ADDRESS_HEADER);
  return local !== null && local === hostOf(host.name, host.port);
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
  });
}

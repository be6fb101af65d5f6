import "server-only";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type net from "node:net";
import { hostOf } from "./hosts";

// The peer stamp: what the socket knows and a route handler cannot see (the peer's address, the
// address the connection reached, a method the fetch standard forbids), written onto every
// request's headers before any handler runs, replacing whatever a client sent under those names.

/**
 * The header that carries the address and port the connection reached (`host:port`, IPv6 in
 * brackets) to route handlers. Written on every request by the same diagnostics-channel hook that
 * stamps the peer address (installPeerStamp below), replacing whatever a client sent.
 */
export const LOCAL_ADDRESS_HEADER = "x-dd-local-address";

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

/** The address and port the connection was accepted on, when the server stamped it (a client could send the header itself otherwise). */
export function stampedLocalAddress(request: { headers: Headers }): string | null {
  return peerStampInstalled() ? request.headers.get(LOCAL_ADDRESS_HEADER) : null;
}

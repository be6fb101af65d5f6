import net from "node:net";

// Which Host a request may name. A browser sends whatever name it resolved, so a page on another
// site whose name is made to resolve to this server (DNS rebinding) is, to the browser, the same
// origin as that name: it could sign in, read /api with the session it got, save, and speak MCP,
// all as "same-origin". What the server believes, then, is the name: a loopback name, the
// address and port the connection reached, the name of PUBLIC_ORIGIN, and the names an operator
// lists in ALLOWED_HOSTS. proxy.ts refuses any other Host before a route runs (400
// `untrusted_host`); lib/http/origin.ts asks the same when it writes URLs.

interface HostPolicy {
  /** PUBLIC_ORIGIN: its host is believed. */
  publicOrigin?: string;
  /**
   * ALLOWED_HOSTS: `name` (any port), `name:port`, `.example.com` (that name and every name under
   * it), or `*` (every Host: for a deployment whose proxy checks names itself).
   */
  allowedHosts: readonly string[];
}

/** A Host header's parts: the name (IPv6 without brackets) and port, the scheme's default when absent. */
interface ParsedHost {
  name: string;
  port: number;
  /** Whether a port was written. */
  explicitPort: boolean;
  v6: boolean;
}

const HOST_SHAPE = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::([0-9]{1,5}))?$/;

/** A Host header split into its name and port, or null when it is not one. */
export function parseHost(host: string, protocol: string): ParsedHost | null {
  const m = HOST_SHAPE.exec(host.toLowerCase());
  if (!m) return null;
  const port = m[3] === undefined ? (protocol === "https:" ? 443 : 80) : Number(m[3]);
  if (port < 1 || port > 65535) return null;
  if (m[1] !== undefined) return net.isIP(m[1]) === 6 ? { name: m[1], port, explicitPort: m[3] !== undefined, v6: true } : null;
  const name = (m[2] ?? "").replace(/\.$/, "");
  if (name === "" || name.startsWith(".") || name.includes("..")) return null;
  return { name, port, explicitPort: m[3] !== undefined, v6: false };
}

const loopback = new net.BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

function isLoopbackName(name: string, v6: boolean): boolean {
  if (v6) return loopback.check(name, "ipv6");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return net.isIP(name) === 4 && loopback.check(name, "ipv4");
}

/** `address:port` as a Host header names it: IPv6 in brackets, IPv4-mapped IPv6 as IPv4. */
export function hostOf(address: string, port: number): string {
  const a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)?.[1];
  if (mapped) return `${mapped}:${port}`;
  return net.isIP(a) === 6 ? `[${a}]:${port}` : `${a}:${port}`;
}

function listed(host: ParsedHost, entry: string): boolean {
  if (entry === "*") return true;
  if (entry.startsWith(".")) {
    const domain = entry.slice(1);
    return host.name === domain || host.name.endsWith(entry);
  }
  const parsed = parseHost(entry, "http:");
  if (!parsed || parsed.name !== host.name) return false;
  return !parsed.explicitPort || parsed.port === host.port;
}

/**
 * Whether the server believes `hostHeader`: a loopback name (any port), exactly the address and
 * port the connection reached (`local`, when the server stamped it), PUBLIC_ORIGIN's host, or an
 * ALLOWED_HOSTS entry.
 */
export function hostBelieved(hostHeader: string | null, protocol: string, local: string | null, policy: HostPolicy): boolean {
  if (hostHeader === null) return false;
  const host = parseHost(hostHeader, protocol);
  if (!host) return false;
  if (isLoopbackName(host.name, host.v6)) return true;
  if (local !== null && local === hostOf(host.name, host.port)) return true;
  if (policy.publicOrigin) {
    const origin = new URL(policy.publicOrigin);
    const publicHost = parseHost(origin.host, origin.protocol);
    // Behind a proxy that ends TLS the request arrives as http, so a Host without a port is not
    // held to the scheme's default.
    if (publicHost && publicHost.name === host.name && (!host.explicitPort || publicHost.port === host.port)) return true;
  }
  return policy.allowedHosts.some((entry) => listed(host, entry));
}

export const UNTRUSTED_HOST_HINT =
  "This server answers only under the names it was told of: reach it at a loopback address or the address it listens on, or have its operator set PUBLIC_ORIGIN or ALLOWED_HOSTS.";

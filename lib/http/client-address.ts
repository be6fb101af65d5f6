import "server-only";
import net from "node:net";
import { PEER_HEADER, peerStampInstalled } from "./peer-stamp";

// Who a request comes from, as rate limits and access rules count it.


export type AddressMatcher = (address: string) => boolean;

/** Matches addresses against a list of addresses and CIDR ranges (IPv4 and IPv6). */
export function addressMatcher(entries: readonly string[]): AddressMatcher {
  if (entries.length === 0) return () => false;
  const list = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address = "", prefix] = entry.split("/");
    const family = net.isIP(address);
    if (family === 0) throw new Error(`TRUSTED_PROXY: ${entry} is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^[0-9]{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`TRUSTED_PROXY: bad prefix in ${entry}`);
      list.addSubnet(address, bits, type);
    }
  }
  return (address) => {
    const family = net.isIP(address);
    return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
  };
}

/** IPv4-mapped IPv6 addresses (dual-stack sockets) as plain IPv4. */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped?.[1] ?? a;
}

/**
 * The address a request is counted against. The socket peer, unless the peer is a trusted
 * proxy: then X-Forwarded-For is read from the right, skipping trusted proxies, and the first
 * address that is not one is the client. Without a trusted proxy the header is ignored, so a
 * client cannot choose its own address. When the peer is unknown (no stamp), every such
 * request shares one key.
 */
export function clientAddress(request: Request, trusted: AddressMatcher): string {
  const client = clientIp(request, trusted);
  return client === null ? "unknown" : bucketKey(client);
}

/** The client's address as clientAddress finds it, whole (not bucketed); null when the peer is unknown. */
export function clientIp(request: Request, trusted: AddressMatcher): string | null {
  const stamped = peerStampInstalled() ? request.headers.get(PEER_HEADER) : null;
  if (!stamped) return null;
  let client = normaliseAddress(stamped);
  if (trusted(client)) {
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map(normaliseAddress).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? "";
      if (net.isIP(hop) === 0) break;
      client = hop;
      if (!trusted(hop)) break;
    }
  }
  return client;
}

/** One key per IPv6 /64 (one subscriber's usual allocation), so address hopping gains nothing. */
export function bucketKey(address: string): string {
  if (net.isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.replace(/^0+/, "") || "0"))
    .join(":")}::/64`;
}

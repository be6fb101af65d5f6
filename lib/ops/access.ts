import "server-only";
import net from "node:net";
import { timingSafeEqual, createHash } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import { clientIp, type AddressMatcher } from "@/lib/http/client-address";

// Who may read /metrics: a caller on loopback (the host's own agent), or anyone presenting the
// configured bearer token. Behind a trusted proxy the client is the address the proxy forwarded
// (TRUSTED_PROXY), so a proxy on loopback does not make every visitor local. Without a token
// configured, everyone else is told there is nothing here (404); with one, a missing or wrong
// token is 401.

const loopback = new net.BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

function isLoopback(address: string | null): boolean {
  if (!address) return false;
  const family = net.isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? "ipv4" : "ipv6");
}

const digest = (s: string) => createHash("sha256").update(s).digest();

function bearerMatches(request: Request, token: string): boolean {
  const m = /^Bearer ([\x21-\x7e]+)$/.exec(request.headers.get("authorization") ?? "");
  return m !== null && timingSafeEqual(digest(m[1] ?? ""), digest(token));
}

/** Throws unless the caller may read operational data. */
export function allowOperator(request: Request, trusted: AddressMatcher, token: string | undefined): void {
  if (token && bearerMatches(request, token)) return;
  if (isLoopback(clientIp(request, trusted))) return;
  if (!token) throw new ApiError("not_found");
  throw new ApiError("unauthorized", "Send Authorization: Bearer <METRICS_TOKEN>, or scrape from the host itself.", { "www-authenticate": 'Bearer realm="metrics"' });
}

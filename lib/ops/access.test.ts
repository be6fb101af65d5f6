import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/contract/errors";
import { PEER_HEADER } from "@/lib/http/peer-stamp";
import { addressMatcher } from "@/lib/http/client-address";
import { installPeerStamp } from "@/lib/http/peer-stamp";
import { allowOperator } from "./access";

describe("who may read /metrics", () => {
  installPeerStamp();
  const req = (peer: string, headers: Record<string, string> = {}) => new Request("http://app.test/metrics", { headers: { [PEER_HEADER]: peer, ...headers } });
  const refusal = (f: () => void): number | null => {
    try {
      f();
      return null;
    } catch (e) {
      return e instanceof ApiError ? (e.code === "not_found" ? 404 : e.code === "unauthorized" ? 401 : 0) : 0;
    }
  };
  const none = addressMatcher([]);
  const proxy = addressMatcher(["127.0.0.1"]);
  const token = "t".repeat(32);

  it("lets loopback callers in, and nobody else when no token is configured (404)", () => {
    expect(refusal(() => allowOperator(req("127.0.0.1"), none, undefined))).toBeNull();
    expect(refusal(() => allowOperator(req("::1"), none, undefined))).toBeNull();
    expect(refusal(() => allowOperator(req("::ffff:127.0.0.5"), none, undefined))).toBeNull();
    expect(refusal(() => allowOperator(req("203.0.113.9"), none, undefined))).toBe(404);
    // A forwarded address is not believed from a peer that is not a trusted proxy.
    expect(refusal(() => allowOperator(req("203.0.113.9", { "x-forwarded-for": "127.0.0.1" }), none, undefined))).toBe(404);
  });

  it("judges the client a trusted proxy forwards, not the proxy", () => {
    expect(refusal(() => allowOperator(req("127.0.0.1", { "x-forwarded-for": "198.51.100.4" }), proxy, undefined))).toBe(404);
    expect(refusal(() => allowOperator(req("127.0.0.1", { "x-forwarded-for": "198.51.100.4" }), none, undefined))).toBeNull();
  });

  it("lets the bearer of the configured token in from anywhere; 401 without it", () => {
    expect(refusal(() => allowOperator(req("203.0.113.9", { authorization: `Bearer ${token}` }), none, token))).toBeNull();
    expect(refusal(() => allowOperator(req("203.0.113.9", { authorization: `Bearer ${token}x` }), none, token))).toBe(401);
    expect(refusal(() => allowOperator(req("203.0.113.9", { authorization: `bearer ${token}` }), none, token))).toBe(401);
    expect(refusal(() => allowOperator(req("203.0.113.9"), none, token))).toBe(401);
    expect(refusal(() => allowOperator(req("127.0.0.1"), none, token))).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { PEER_HEADER, installPeerStamp } from "./peer-stamp";
import { addressMatcher, bucketKey, clientAddress, normaliseAddress } from "./client-address";

describe("client address", () => {
  installPeerStamp();
  const req = (peer: string | null, xff?: string) => {
    const headers = new Headers();
    if (peer) headers.set(PEER_HEADER, peer);
    if (xff) headers.set("x-forwarded-for", xff);
    return new Request("http://app.test/", { headers });
  };

  it("is the socket peer, and X-Forwarded-For is ignored without a trusted proxy", () => {
    const none = addressMatcher([]);
    expect(clientAddress(req("::ffff:203.0.113.9", "198.51.100.1"), none)).toBe("203.0.113.9");
    expect(clientAddress(req(null, "198.51.100.1"), none)).toBe("unknown");
  });

  it("reads X-Forwarded-For from the right, past trusted proxies only", () => {
    const trusted = addressMatcher(["10.0.0.0/8", "127.0.0.1"]);
    expect(clientAddress(req("127.0.0.1", "198.51.100.1"), trusted)).toBe("198.51.100.1");
    expect(clientAddress(req("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.1.2.3"), trusted)).toBe("198.51.100.1");
    expect(clientAddress(req("203.0.113.9", "198.51.100.1"), trusted)).toBe("203.0.113.9");
    expect(clientAddress(req("127.0.0.1", "garbage, 10.0.0.1"), trusted)).toBe("10.0.0.1");
    expect(clientAddress(req("127.0.0.1"), trusted)).toBe("127.0.0.1");
  });

  it("groups IPv6 clients by /64", () => {
    expect(bucketKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(bucketKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(bucketKey("::1")).toBe("0:0:0:0::/64");
    expect(bucketKey("192.0.2.1")).toBe("192.0.2.1");
    expect(normaliseAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
  });

  it("refuses a malformed TRUSTED_PROXY entry", () => {
    expect(() => addressMatcher(["not-an-ip"])).toThrow(/TRUSTED_PROXY/);
    expect(() => addressMatcher(["10.0.0.0/33"])).toThrow(/TRUSTED_PROXY/);
    expect(addressMatcher(["2001:db8::/32"])("2001:db8:ffff::1")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { PEER_HEADER } from "@/lib/http/origin";
import { ByteBudget, InFlight, RateLimiter, releasingBody, addressMatcher, bucketKey, clientAddress, installPeerStamp, normaliseAddress } from "./limits";

describe("RateLimiter", () => {
  it("allows a burst of the limit, then answers when to retry, then refills", () => {
    let now = 0;
    const limiter = new RateLimiter(3, () => now);
    expect([1, 2, 3].map(() => limiter.take("a").ok)).toEqual([true, true, true]);
    const refused = limiter.take("a");
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(limiter.take("b").ok).toBe(true);
    now = 20_000;
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a").ok).toBe(false);
  });

  it("keeps at most maxKeys buckets", () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now, 100);
    for (let i = 0; i < 1000; i++) limiter.take(`k${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(100);
    now = 60_000;
    for (let i = 0; i < 1000; i++) limiter.take(`j${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(100);
  });
});

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

describe("InFlight", () => {
  it("holds at most the bound per key and in all, and frees a slot once", () => {
    const f = new InFlight(2, 3);
    const a1 = f.enter("a");
    const a2 = f.enter("a");
    expect(a1 && a2).toBeTruthy();
    expect(f.enter("a")).toBeNull();
    const b1 = f.enter("b");
    expect(b1).toBeTruthy();
    // The instance is full: another address waits too.
    expect(f.enter("c")).toBeNull();
    a1!();
    a1!();
    expect(f.enter("c")).toBeTruthy();
    expect(f.enter("a")).toBeNull();
    a2!();
    b1!();
    expect(f.keys()).toBe(1);
  });
});

describe("releasingBody", () => {
  it("releases once the last byte is read, or when the reader goes away", async () => {
    let released = 0;
    const bytes = new Uint8Array(200_000).fill(7);
    const read = await new Response(releasingBody(bytes, () => released++)).arrayBuffer();
    expect(read.byteLength).toBe(bytes.byteLength);
    expect(released).toBe(1);

    const stream = releasingBody(bytes, () => released++);
    const reader = stream.getReader();
    await reader.read();
    expect(released).toBe(1);
    await reader.cancel();
    expect(released).toBe(2);
  });
});

describe("ByteBudget", () => {
  it("lets a burst go, then bytes at its rate, and says how long to wait", () => {
    let t = 0;
    const b = new ByteBudget(1000, 3000, () => t);
    expect(b.take(2000)).toBe(0);
    expect(b.take(1000)).toBe(0);
    expect(b.take(1500)).toBe(2);
    t = 1500;
    expect(b.take(1500)).toBe(0);
    // Larger than the burst: it goes once the bucket is full, never refused for ever.
    expect(b.take(10_000)).toBe(3);
    t = 4500;
    expect(b.take(10_000)).toBe(0);
  });
});

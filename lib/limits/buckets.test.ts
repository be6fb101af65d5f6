import { describe, expect, it } from "vitest";
import { ByteBudget, InFlight, RateLimiter, releasingBody } from "./buckets";

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

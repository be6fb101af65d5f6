import { describe, expect, it } from "vitest";
import { ReadCache } from "./read-cache";

function clock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("ReadCache", () => {
  it("serves fresh entries without loading, then stale ones while one refresh runs", async () => {
    const c = clock();
    const cache = new ReadCache({ maxEntries: 10, freshMs: 100, staleMs: 1000, now: c.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("u1:tracker", load)).toBe(1);
    c.advance(50);
    expect(await cache.get("u1:tracker", load)).toBe(1);
    expect(loads).toBe(1);
    c.advance(100); // stale
    expect(await cache.get("u1:tracker", load)).toBe(1); // stale answer at once
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(loads).toBe(2);
    expect(await cache.get("u1:tracker", load)).toBe(2);
    c.advance(2000); // expired: waits for a fresh load
    expect(await cache.get("u1:tracker", load)).toBe(3);
  });

  it("loads once for concurrent readers and never caches a failure", async () => {
    const cache = new ReadCache({ maxEntries: 10, freshMs: 1000, staleMs: 0 });
    let loads = 0;
    const slow = () => new Promise<number>((r) => setTimeout(() => r(++loads), 10));
    const [a, b] = await Promise.all([cache.get("k", slow), cache.get("k", slow)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    await expect(cache.get("bad", async () => Promise.reject(new Error("upstream down")))).rejects.toThrow("upstream down");
    expect(await cache.get("bad", async () => 7)).toBe(7);
  });

  it("stays within its bound, evicting the least recently used", async () => {
    const cache = new ReadCache({ maxEntries: 2, freshMs: 1000, staleMs: 0 });
    await cache.get("a", async () => "a");
    await cache.get("b", async () => "b");
    await cache.get("a", async () => "a2"); // touch a
    await cache.get("c", async () => "c");
    expect(cache.size).toBe(2);
    expect(await cache.get("a", async () => "reloaded")).toBe("a");
    expect(await cache.get("b", async () => "reloaded")).toBe("reloaded");
  });

  it("forgets one user's reads of one connector on invalidate", async () => {
    const cache = new ReadCache({ maxEntries: 10, freshMs: 1000, staleMs: 0 });
    await cache.get("7:tracker:/issues", async () => 1);
    await cache.get("8:tracker:/issues", async () => 1);
    cache.invalidate("7:tracker:");
    expect(await cache.get("7:tracker:/issues", async () => 2)).toBe(2);
    expect(await cache.get("8:tracker:/issues", async () => 2)).toBe(1);
  });
});

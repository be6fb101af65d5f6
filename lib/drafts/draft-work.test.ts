import { describe, expect, it } from "vitest";
import { Coalesced, Periodic, ReadAnswers, SharedWork } from "./draft-work";

const answer = (revision: number, size: number) => ({ revision, updatedAt: revision, bytes: new Uint8Array(size) });

describe("ReadAnswers", () => {
  it("drops the least recently used past its entry bound, a read counting as a use", () => {
    const kept = new ReadAnswers(2, 1000);
    kept.set("a", answer(1, 10));
    kept.set("b", answer(1, 10));
    expect(kept.get("a")?.revision).toBe(1);
    kept.set("c", answer(1, 10));
    expect(kept.get("b")).toBeUndefined();
    expect(kept.get("a")).toBeDefined();
    expect(kept.get("c")).toBeDefined();
    expect([kept.size, kept.bytes]).toEqual([2, 20]);
  });

  it("stays within its byte bound, replaces an answer in place, and never keeps one over a quarter of it", () => {
    const kept = new ReadAnswers(100, 400);
    kept.set("a", answer(1, 100));
    kept.set("b", answer(1, 100));
    kept.set("a", answer(2, 90));
    expect([kept.size, kept.bytes, kept.get("a")?.revision]).toEqual([2, 190, 2]);
    kept.set("c", answer(1, 100));
    kept.set("d", answer(1, 100));
    expect([kept.size, kept.bytes]).toEqual([4, 390]);
    kept.set("e", answer(1, 100));
    expect([kept.size, kept.bytes]).toEqual([4, 390]);
    expect(kept.get("b")).toBeUndefined();
    // Too large to keep: the older answer of that id goes too, so a stale one is never served.
    kept.set("c", answer(2, 101));
    expect(kept.get("c")).toBeUndefined();
    expect(kept.bytes).toBe(290);
  });
});

describe("SharedWork", () => {
  it("runs one work per key for concurrent callers and forgets it once done", async () => {
    const shared = new SharedWork<number>(8);
    let runs = 0;
    let finish!: (n: number) => void;
    const work = () => {
      runs++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const first = shared.share("k", work);
    const second = shared.share("k", work);
    expect(shared.inFlight("k")).toBeDefined();
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect([runs, shared.size]).toEqual([1, 0]);
    expect(await shared.share("k", async () => 8)).toBe(8);
  });

  it("past its bound, a caller runs its own work and the map does not grow", async () => {
    const shared = new SharedWork<string>(1);
    let release!: () => void;
    const held = shared.share("a", () => new Promise((resolve) => (release = () => resolve("a"))));
    expect(await shared.share("b", async () => "b")).toBe("b");
    expect(shared.size).toBe(1);
    expect(shared.inFlight("b")).toBeUndefined();
    release();
    expect(await held).toBe("a");
  });
});

describe("Coalesced", () => {
  it("turns a burst of requests during a run into exactly one more run", async () => {
    const errors: unknown[] = [];
    const coalesced = new Coalesced((_key, err) => errors.push(err));
    let runs = 0;
    const gates: Array<() => void> = [];
    const work = () => {
      runs++;
      return new Promise<void>((resolve) => gates.push(resolve));
    };
    coalesced.request("d", work);
    for (let i = 0; i < 5; i++) coalesced.request("d", work);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect([runs, coalesced.size, errors.length]).toEqual([2, 0, 0]);
  });

  it("reports a failing run and lets the key run again afterwards", async () => {
    const errors: string[] = [];
    const coalesced = new Coalesced((key, err) => errors.push(`${key}: ${(err as Error).message}`));
    coalesced.request("d", async () => {
      throw new Error("gone");
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toEqual(["d: gone"]);
    expect(coalesced.size).toBe(0);
  });
});

describe("Periodic", () => {
  it("runs at most once per period, never twice at once, and counts a direct run", async () => {
    let now = 0;
    const errors: unknown[] = [];
    const periodic = new Periodic(60_000, () => now, (err) => errors.push(err));
    let runs = 0;
    let release!: () => void;
    const work = () => {
      runs++;
      return new Promise<void>((resolve) => (release = resolve));
    };
    periodic.maybeRun(work);
    now = 120_000;
    periodic.maybeRun(work);
    expect(runs).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 0));
    now = 150_000;
    periodic.ran();
    now = 200_000;
    periodic.maybeRun(work);
    expect(runs).toBe(1);
    now = 210_000;
    periodic.maybeRun(async () => {
      runs++;
      throw new Error("disk full");
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
  });
});

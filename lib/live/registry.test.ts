import { describe, expect, it } from "vitest";
import { Registry } from "./registry";

const caps = { perDraftPerAddress: 2, perAddress: 3, total: 4 };
const watcher = (draftId: string, address: string) => ({ draftId, address });

describe("the registry of watchers", () => {
  it("admits within each cap and frees a place when a watcher leaves", () => {
    const r = new Registry<ReturnType<typeof watcher>>();
    const a1 = watcher("d1", "a");
    r.add(a1);
    r.add(watcher("d1", "a"));
    expect(r.admits("d1", "a", caps)).toBe(false);
    expect(r.admits("d2", "a", caps)).toBe(true);
    r.add(watcher("d2", "a"));
    expect(r.admits("d3", "a", caps)).toBe(false);
    r.add(watcher("d3", "b"));
    expect(r.admits("d4", "c", caps)).toBe(false);
    expect(r.delete(a1)).toBe(false);
    expect(r.admits("d1", "a", caps)).toBe(true);
    expect(r.size()).toBe(3);
  });

  it("keeps no entry for a draft, address or pair once its last watcher has left, and forgets a watcher once", () => {
    const r = new Registry<ReturnType<typeof watcher>>();
    const w = watcher("d1", "a");
    r.add(w);
    expect(r.of("d1")?.has(w)).toBe(true);
    expect(r.delete(w)).toBe(true);
    expect(r.delete(w)).toBe(false);
    expect(r.of("d1")).toBeUndefined();
    expect([...r.all()]).toEqual([]);
    expect(r.bookkeepingSize()).toEqual({ addresses: 0, pairs: 0, drafts: 0 });
    expect(r.size()).toBe(0);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDb, type OpenDb } from "@/lib/db";
import { leaseOf, release, renew, tryAcquire } from "@/lib/crm/lock";
import { backends } from "../support/backends";

describe.each(backends)("CRM sync lease over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let second: OpenDb;

  beforeAll(async () => {
    h = await backend.open();
    // Another connection to the same storage, as a second app instance would have.
    second = await openDb(h.storage);
  });
  afterAll(async () => {
    await second.close();
    await h.close();
  });
  beforeEach(async () => {
    await h.db.deleteFrom("crm_sync_locks").execute();
  });

  it("is held by one holder until released or expired", async () => {
    const t = 1_000_000;
    expect(await tryAcquire(h.db, "customers", "a", 10_000, t)).toBe(true);
    expect(await tryAcquire(h.db, "customers", "b", 10_000, t + 1)).toBe(false);
    // The other instance has its own lease.
    expect(await tryAcquire(h.db, "users", "b", 10_000, t + 1)).toBe(true);
    // The holder may take it again (and so extend it).
    expect(await tryAcquire(h.db, "customers", "a", 10_000, t + 2)).toBe(true);
    expect(await leaseOf(h.db, "customers")).toEqual({ holder: "a", expiresAt: t + 10_002 });

    // Expiry is inclusive: at expires_at the lease is free.
    expect(await tryAcquire(h.db, "customers", "b", 10_000, t + 10_001)).toBe(false);
    expect(await tryAcquire(h.db, "customers", "b", 10_000, t + 10_002)).toBe(true);
    expect(await leaseOf(h.db, "customers")).toEqual({ holder: "b", expiresAt: t + 20_002 });
  });

  it("renews only for its holder, and release by another leaves it in place", async () => {
    const t = 2_000_000;
    expect(await tryAcquire(h.db, "customers", "a", 1_000, t)).toBe(true);
    expect(await renew(h.db, "customers", "b", 1_000, t + 500)).toBe(false);
    expect(await renew(h.db, "customers", "a", 1_000, t + 900)).toBe(true);
    expect(await tryAcquire(h.db, "customers", "b", 1_000, t + 1_500)).toBe(false);

    await release(h.db, "customers", "b");
    expect((await leaseOf(h.db, "customers"))?.holder).toBe("a");
    await release(h.db, "customers", "a");
    expect(await leaseOf(h.db, "customers")).toBeNull();
    expect(await tryAcquire(h.db, "customers", "b", 1_000, t + 1_600)).toBe(true);
  });

  it("a holder whose lease was taken cannot renew it", async () => {
    const t = 3_000_000;
    expect(await tryAcquire(h.db, "customers", "a", 1_000, t)).toBe(true);
    expect(await tryAcquire(h.db, "customers", "b", 1_000, t + 1_000)).toBe(true);
    expect(await renew(h.db, "customers", "a", 1_000, t + 1_001)).toBe(false);
    expect((await leaseOf(h.db, "customers"))?.holder).toBe("b");
  });

  it("lets exactly one of many concurrent acquirers win, on one connection and across two", async () => {
    for (let round = 0; round < 5; round++) {
      await h.db.deleteFrom("crm_sync_locks").execute();
      const t = 4_000_000 + round;
      const handles = [h.db, second.db];
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => tryAcquire(handles[i % 2]!, "customers", `holder-${i}`, 60_000, t)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = `holder-${results.indexOf(true)}`;
      expect((await leaseOf(second.db, "customers"))?.holder).toBe(winner);
    }
  });

  it("lets exactly one of many concurrent acquirers take over an expired lease", async () => {
    for (let round = 0; round < 5; round++) {
      await h.db.deleteFrom("crm_sync_locks").execute();
      const t = 5_000_000 + round * 100_000;
      expect(await tryAcquire(h.db, "customers", "dead", 1_000, t)).toBe(true);
      const handles = [h.db, second.db];
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => tryAcquire(handles[i % 2]!, "customers", `holder-${i}`, 60_000, t + 5_000)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    }
  });
});

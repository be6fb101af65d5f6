import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateTenant } from "@/demo/tenant";
import { serveOnLoopback } from "@/lib/connectors/stand-in/node-server";
import { startCrmSync, type CrmSyncScheduler } from "@/lib/crm/scheduler";
import { lastSuccessfulSync } from "@/lib/crm/store";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";
import { backends } from "../support/backends";
import { ManualTimers } from "../support/timers";
import { FAST_SEARCHES_PER_SECOND, portalToken, runsOf, startPortal, type Portal } from "./helpers";

const tenant = generateTenant();

/** A loopback port with nothing listening on it (yet). */
async function freePort(): Promise<number> {
  const s = await serveOnLoopback(async () => new Response(null, { status: 204 }));
  const port = Number(new URL(s.url).port);
  await s.close();
  return port;
}

describe.each(backends)("CRM sync scheduler over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let scheduler: CrmSyncScheduler | undefined;
  let portal: Portal | undefined;
  const lines: string[] = [];

  beforeEach(async () => {
    h = await backend.open();
    lines.length = 0;
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    await portal?.close();
    portal = undefined;
    await h.close();
  });

  const upstreamAt = (url: string) => (instance: CrmInstance) => ({
    baseUrl: url,
    authorization: `Bearer ${portalToken(instance, tenant)}`,
    timeoutMs: 5_000,
    maxRetries: 0,
    searchesPerSecond: FAST_SEARCHES_PER_SECOND,
  });

  it("retries at start-up until the portal answers, then syncs both instances", async () => {
    const port = await freePort();
    const timers = new ManualTimers();
    scheduler = startCrmSync({
      timers,
      db: async () => h.db,
      upstreamFor: upstreamAt(`http://127.0.0.1:${port}`),
      intervalMs: 3_600_000,
      onStart: true,
      log: (line) => lines.push(line),
      startBackoffMs: [100, 100, 200, 400, 800, 1_600],
    });
    // Runs at once, finds nothing listening, and waits the first back-off.
    expect(await timers.next()).toBe(0);
    await timers.fire();
    expect(await timers.next()).toBe(100);
    expect(lines.filter((l) => l.includes("not reachable yet"))).toEqual(["crm sync: upstream not reachable yet, retrying in 100 ms"]);
    expect(await lastSuccessfulSync(h.db, "customers")).toBeNull();

    portal = await startPortal(tenant, port);
    await timers.fire();
    // Synced: from now on it waits its interval, not a back-off.
    expect(await timers.next()).toBe(3_600_000);
    expect(await lastSuccessfulSync(h.db, "customers")).not.toBeNull();
    expect(await lastSuccessfulSync(h.db, "users")).not.toBeNull();
    const runs = await runsOf(h.db, "customers");
    expect(runs[0]).toMatchObject({ status: "failed" });
    expect(runs[0]!.error).toContain("network");
    expect(runs[runs.length - 1]).toMatchObject({ status: "ok" });
  });

  it("does not run at start when told not to, and serves concurrent requests one run after another", async () => {
    portal = await startPortal(tenant);
    const timers = new ManualTimers();
    scheduler = startCrmSync({
      timers,
      db: async () => h.db,
      upstreamFor: (instance) => (instance === "customers" ? upstreamAt(portal!.url)(instance) : null),
      intervalMs: 3_600_000,
      onStart: false,
      log: (line) => lines.push(line),
    });
    // Nothing at start: its one timer is the interval's.
    expect(timers.waits).toEqual([3_600_000]);
    expect(await runsOf(h.db, "customers")).toEqual([]);

    await Promise.all([scheduler.runNow(), scheduler.runNow(), scheduler.runNow(), scheduler.runNow()]);
    const runs = await runsOf(h.db, "customers");
    // The first request starts a run; the others share one follow-up run after it.
    expect(runs.map((r) => r.status)).toEqual(["ok", "ok"]);
    expect(runs[1]!.started_at).toBeGreaterThanOrEqual(runs[0]!.finished_at!);
    expect(lines.some((l) => l.includes("skipped"))).toBe(false);
    // An unconfigured instance is left alone.
    expect(await runsOf(h.db, "users")).toEqual([]);
  });

  it("runs on its interval until stopped", async () => {
    portal = await startPortal(tenant);
    const timers = new ManualTimers();
    scheduler = startCrmSync({
      timers,
      db: async () => h.db,
      upstreamFor: upstreamAt(portal.url),
      intervalMs: 150,
      onStart: false,
      log: (line) => lines.push(line),
    });
    for (let i = 1; i <= 2; i++) {
      await timers.fire();
      // A run ends by setting the next interval's timer.
      expect(await timers.next()).toBe(150);
      expect(await runsOf(h.db, "customers")).toHaveLength(i);
    }
    await scheduler.stop();
    // Stopped: no timer is left to run again.
    expect(timers.waits).toEqual([]);
    expect(await runsOf(h.db, "customers")).toHaveLength(2);
    scheduler = undefined;
  });
});

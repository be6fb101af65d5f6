import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSession } from "@/lib/auth/session";
import { upsertUser } from "@/lib/auth/users";
import type { OpenDb, Storage } from "@/lib/db";
import { backupDatabase, restoreDatabase } from "@/lib/db/backup";
import { INSTANCE_EXPIRY_MS, INSTANCE_REFRESH_MS, announceInstance, runningInstances } from "@/lib/db/instances";
import { moveDatabase } from "@/lib/db/move";
import { Refusal } from "@/lib/db/transfer";
import { announcePresence } from "@/lib/ops/presence";
import { backends } from "../support/backends";

// The instance registry as db:move, db:backup and db:restore read it, on both engines: a
// registered instance blocks a move and a restore, named by host, pid and start; a clean stop
// removes it and the move goes ahead at once, recent writes or not; a row left by a crash stops
// counting at its expiry; the refresh timer keeps a running instance counted. Time is a clock the
// test moves, never waited for.

const T0 = Date.UTC(2026, 10, 27, 12, 0, 5);
const SINCE = "running since 2026-11-27 12:00:05 UTC";

/** A clock the test advances, and a refresh timer it fires by hand. */
function manualTime(start = T0) {
  let t = start;
  const ticks: Array<() => Promise<void>> = [];
  const periods: number[] = [];
  return {
    now: () => t,
    advance: (ms: number) => (t += ms),
    every: (ms: number, tick: () => Promise<void>) => {
      periods.push(ms);
      ticks.push(tick);
      return () => void ticks.splice(ticks.indexOf(tick), 1);
    },
    tick: () => Promise.all(ticks.map((f) => f())),
    periods,
    ticking: () => ticks.length,
  };
}

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof Refusal ? e.message : Promise.reject(e)));

for (const backend of backends) {
  describe(`the instance registry on ${backend.name}`, () => {
    let open: OpenDb & { storage: Storage };
    let dir: string;
    let target: { kind: "sqlite"; file: string };

    beforeEach(async () => {
      open = await backend.open();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-instances-"));
      target = { kind: "sqlite", file: path.join(dir, "moved.sqlite") };
      // Someone signed in just now: the writes a running app makes, which no longer count as one.
      const id = await upsertUser(open.db, { email: "ops@example.test", name: "Ops", groups: [] });
      await startSession(open.db, id, 86_400_000);
    });
    afterEach(async () => {
      await open.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("a running instance blocks a move and a restore, named by host, pid and start; a backup names it and goes ahead; --force overrides", async () => {
      await announceInstance(open.db, { id: "a", host: "web-7", pid: 4242, startedAt: T0, seenAt: T0 + 20_000 });
      const now = () => T0 + 25_000;

      const moved = await refusal(moveDatabase({ from: open.storage, to: target, now }));
      expect(moved).toContain(`The app is running on the source: an instance on host web-7, pid 4242, ${SINCE} (last seen 5 s ago)`);
      expect(moved).toContain("--force copies anyway");
      expect(fs.existsSync(target.file)).toBe(false);

      const file = path.join(dir, "backup.jsonl.gz");
      const backup = await backupDatabase(open.storage, file, { now });
      expect(backup.running.map((i) => [i.host, i.pid, i.startedAt])).toEqual([["web-7", 4242, T0]]);
      // The registry's rows describe this database's processes: they are not part of its data.
      expect(backup.tables.find((t) => t.table === "app_instances")?.rows).toBe(0);
      expect(backup.tables.find((t) => t.table === "users")?.rows).toBe(1);

      const restored = await refusal(restoreDatabase(open.storage, file, { replace: true, now }));
      expect(restored).toContain(`The app is running on the target: an instance on host web-7, pid 4242, ${SINCE}`);
      expect(restored).toContain("--force restores anyway");
      expect(await runningInstances(open.db, now())).toHaveLength(1);

      await announceInstance(open.db, { id: "b", host: "web-8", pid: 17, startedAt: T0 + 1_000, seenAt: T0 + 24_000 });
      expect(await refusal(moveDatabase({ from: open.storage, to: target, now }))).toContain(
        `2 instances: on host web-7, pid 4242, ${SINCE} (last seen 5 s ago); on host web-8, pid 17, running since 2026-11-27 12:00:06 UTC (last seen 1 s ago)`,
      );

      const forced = await moveDatabase({ from: open.storage, to: target, now, force: true });
      expect(forced.ok).toBe(true);
      expect(forced.tables.map((t) => t.table)).not.toContain("app_instances");
      // Nor may a move write into a database an instance serves from.
      const into = await refusal(moveDatabase({ from: target, to: open.storage, replace: true, now }));
      expect(into).toContain("The app is running on the target: 2 instances: on host web-7, pid 4242");
      const again = await restoreDatabase(open.storage, file, { replace: true, force: true, now });
      expect(again.ok).toBe(true);
      expect(await runningInstances(open.db, now())).toEqual([]);
    });

    it("after a clean stop the move goes at once, without --force, though the app wrote a moment ago", async () => {
      const time = manualTime();
      const presence = await announcePresence(open.db, { now: time.now, every: time.every, host: "web-1", pid: 901 });
      expect(await refusal(moveDatabase({ from: open.storage, to: target, now: time.now }))).toContain(`host web-1, pid 901, ${SINCE}`);

      time.advance(1_000);
      await presence.stop();
      expect(time.ticking()).toBe(0);
      expect(await runningInstances(open.db, time.now())).toEqual([]);
      const report = await moveDatabase({ from: open.storage, to: target, now: time.now });
      expect(report.ok).toBe(true);
      expect(report.tables.find((t) => t.table === "sessions")).toMatchObject({ rows: 1, targetRows: 1, same: true });
      expect((await backupDatabase(open.storage, path.join(dir, "b.jsonl.gz"), { now: time.now })).running).toEqual([]);
    });

    it("a row left by a crash stops counting once it is older than the expiry", async () => {
      await announceInstance(open.db, { id: "crashed", host: "web-2", pid: 3, startedAt: T0, seenAt: T0 });
      expect(INSTANCE_EXPIRY_MS).toBe(3 * INSTANCE_REFRESH_MS);
      const justBefore = await refusal(moveDatabase({ from: open.storage, to: target, now: () => T0 + INSTANCE_EXPIRY_MS }));
      expect(justBefore).toContain("host web-2, pid 3");
      expect(justBefore).toContain(`stops counting ${INSTANCE_EXPIRY_MS / 1000} s after it was last seen`);

      const after = () => T0 + INSTANCE_EXPIRY_MS + 1;
      expect((await moveDatabase({ from: open.storage, to: target, now: after })).ok).toBe(true);
      const file = path.join(dir, "backup.jsonl.gz");
      expect((await backupDatabase(open.storage, file, { now: after })).running).toEqual([]);
      expect((await restoreDatabase(open.storage, file, { replace: true, now: after })).ok).toBe(true);
    });

    it("the refresh timer keeps a running instance counted, and sweeps the rows of crashed ones", async () => {
      const time = manualTime();
      await announceInstance(open.db, { id: "dead", host: "web-3", pid: 5, startedAt: T0 - 60_000, seenAt: T0 - 50_000 });
      const presence = await announcePresence(open.db, { now: time.now, every: time.every, host: "web-4", pid: 77 });
      expect(time.periods).toEqual([INSTANCE_REFRESH_MS]);

      // Four refreshes, 40 s in all: past the expiry of the first write, and still counted.
      for (let i = 0; i < 4; i++) {
        time.advance(INSTANCE_REFRESH_MS);
        await time.tick();
      }
      const live = await runningInstances(open.db, time.now());
      expect(live.map((i) => [i.host, i.pid, i.startedAt, i.seenAt])).toEqual([["web-4", 77, T0, T0 + 40_000]]);
      expect(await refusal(moveDatabase({ from: open.storage, to: target, now: time.now }))).toContain(`host web-4, pid 77, ${SINCE} (last seen 0 s ago)`);
      expect((await open.db.selectFrom("app_instances").select("id").execute()).map((r) => r.id)).toEqual([presence.instance.id]);

      // With the timer silent (a hung or killed process) it stops counting at the expiry.
      time.advance(INSTANCE_EXPIRY_MS + 1);
      expect(await runningInstances(open.db, time.now())).toEqual([]);
      await time.tick();
      expect(await runningInstances(open.db, time.now())).toHaveLength(1);
      await presence.stop();
      expect(await open.db.selectFrom("app_instances").select("id").execute()).toEqual([]);
    });
  });
}

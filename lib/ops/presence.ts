import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "@/lib/db";
import { INSTANCE_REFRESH_MS, announceInstance, forgetInstance, type Instance } from "@/lib/db/instances";

// This process in the storage's instance registry (lib/db/instances.ts) while it serves: its row
// is written at start, refreshed on a timer, and deleted by a clean shutdown, so the database
// tools see a stopped app as stopped the moment it exits.

/** Runs `tick` every `ms` until the returned function is called. */
type Every = (ms: number, tick: () => Promise<void>) => () => void;

const everyInterval: Every = (ms, tick) => {
  const timer = setInterval(() => void tick(), ms);
  // The registry never keeps a process alive that has nothing else to do.
  timer.unref();
  return () => clearInterval(timer);
};

interface PresenceOptions {
  now?: () => number;
  every?: Every;
  host?: string;
  pid?: number;
  log?: (line: string) => void;
}

export interface Presence {
  readonly instance: Instance;
  /** Deletes the row; the process is then no longer seen as running. */
  stop(): Promise<void>;
}

export async function announcePresence(db: Db, o: PresenceOptions = {}): Promise<Presence> {
  const now = o.now ?? Date.now;
  const startedAt = now();
  const instance: Instance = { id: randomUUID(), host: o.host ?? os.hostname(), pid: o.pid ?? process.pid, startedAt, seenAt: startedAt };
  await announceInstance(db, instance);
  let stopped = false;
  let refreshing: Promise<void> = Promise.resolve();
  // A refresh that fails (storage away for a moment) is retried by the next; three missed in a
  // row and the tools see this instance as gone, which is what it then looks like from outside.
  const cancel = (o.every ?? everyInterval)(INSTANCE_REFRESH_MS, () => {
    if (stopped) return refreshing;
    instance.seenAt = now();
    refreshing = announceInstance(db, instance).catch((err: unknown) => o.log?.(`instance registry not refreshed: ${err instanceof Error ? err.message : String(err)}`));
    return refreshing;
  });
  return {
    instance,
    async stop() {
      if (stopped) return;
      stopped = true;
      cancel();
      // A refresh still in flight would write the row back after the delete.
      await refreshing;
      await forgetInstance(db, instance.id);
    },
  };
}

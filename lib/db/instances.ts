import "server-only";
import type { Db } from "./index";
import { tablesIn } from "./transfer";

// The instance registry: which app processes serve from this database now. Each one keeps a row
// fresh while it runs (lib/ops/presence.ts) and deletes it when it stops cleanly; a process that
// crashed or was killed leaves its row behind, which stops counting once it is older than
// INSTANCE_EXPIRY_MS. db:move, db:backup and db:restore read it to know, not guess, whether the
// app is running.

/** How often a running instance refreshes its row. */
export const INSTANCE_REFRESH_MS = 10_000;
/** A row not refreshed for this long is a process that is gone: three refreshes missed. */
export const INSTANCE_EXPIRY_MS = 3 * INSTANCE_REFRESH_MS;

export interface Instance {
  id: string;
  host: string;
  pid: number;
  startedAt: number;
  seenAt: number;
}

/** Writes the instance's row, or refreshes it; a row deleted meanwhile (a restore) comes back. */
export async function announceInstance(db: Db, i: Instance): Promise<void> {
  await db
    .insertInto("app_instances")
    .values({ id: i.id, host: i.host, pid: i.pid, started_at: i.startedAt, seen_at: i.seenAt })
    .onConflict((oc) => oc.column("id").doUpdateSet({ seen_at: i.seenAt }))
    .execute();
  // Rows left by crashed processes are swept by the living ones, so the table stays as long as
  // the list of instances.
  await db.deleteFrom("app_instances").where("seen_at", "<", i.seenAt - INSTANCE_EXPIRY_MS).execute();
}

export async function forgetInstance(db: Db, id: string): Promise<void> {
  await db.deleteFrom("app_instances").where("id", "=", id).execute();
}

/** The instances refreshed within the expiry, oldest first; none on a schema without the registry. */
export async function runningInstances(db: Db, now: number): Promise<Instance[]> {
  if (!(await tablesIn(db)).includes("app_instances")) return [];
  const rows = await db.selectFrom("app_instances").selectAll().where("seen_at", ">=", now - INSTANCE_EXPIRY_MS).orderBy("started_at").orderBy("id").execute();
  return rows.map((r) => ({ id: r.id, host: r.host, pid: Number(r.pid), startedAt: Number(r.started_at), seenAt: Number(r.seen_at) }));
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** The instances as an operator reads them: where each runs, as which process, since when. */
export function describeInstances(list: Instance[], now: number): string {
  const one = (i: Instance) => `host ${i.host}, pid ${i.pid}, running since ${utc(i.startedAt)} (last seen ${Math.max(0, Math.round((now - i.seenAt) / 1000))} s ago)`;
  return list.length === 1 ? `an instance on ${one(list[0]!)}` : `${list.length} instances: ${list.map((i) => `on ${one(i)}`).join("; ")}`;
}

/** What a refusal adds, so that an operator whose instance crashed knows to wait, not to force. */
export const EXPIRY_NOTE = `An instance that stopped without a clean shutdown stops counting ${INSTANCE_EXPIRY_MS / 1000} s after it was last seen.`;

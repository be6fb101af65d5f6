import "server-only";
import { sql } from "kysely";
import type { OpenDb } from "@/lib/db";
import { migrationNames } from "@/lib/db/migrate";

// Whether this instance should be sent traffic: storage answers, every migration this build
// knows is applied, and on PostgreSQL the LISTEN connection that carries other instances'
// draft updates is up (without it, watchers here would miss updates made elsewhere).

export type Readiness = { ready: true } | { ready: false; reason: "storage" | "migrations" | "listener"; hint: string };

interface ReadinessDeps {
  storage(): Promise<OpenDb>;
  /** Whether this instance hears other instances' draft updates (true where there are none: SQLite). */
  listening(): Promise<boolean>;
  timeoutMs?: number;
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);

export async function readiness(deps: ReadinessDeps): Promise<Readiness> {
  const ms = deps.timeoutMs ?? 2_000;
  let applied: Set<string>;
  try {
    const open = await within(deps.storage(), ms, "storage");
    const rows = await within(sql<{ name: string }>`select name from kysely_migration`.execute(open.db), ms, "storage");
    applied = new Set(rows.rows.map((r) => r.name));
  } catch (err) {
    return { ready: false, reason: "storage", hint: `Storage is not reachable: ${message(err)}` };
  }
  const missing = migrationNames.filter((n) => !applied.has(n));
  if (missing.length > 0) return { ready: false, reason: "migrations", hint: `Migrations not applied: ${missing.join(", ")}.` };
  let listening = false;
  try {
    listening = await within(deps.listening(), ms, "the draft listener");
  } catch (err) {
    return { ready: false, reason: "listener", hint: `The draft-update listener is not connected: ${message(err)}` };
  }
  if (!listening) return { ready: false, reason: "listener", hint: "The draft-update listener (LISTEN on PostgreSQL) is not connected." };
  return { ready: true };
}

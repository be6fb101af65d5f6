import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { ReadCache } from "@/lib/cache/read-cache";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";

// CRM pages and the CX views change only when their inputs do: a completed CRM portal sync of
// the instance, or a new load of usage or health. An answer is kept under a key naming those
// inputs and recomputed when any of them moves, so repeated reads cost one small query.
// Bounded: at most 500 answers, each kept an hour at most.

/** The process's cache of CRM and CX answers; the composition root (lib/root) keeps one. */
export function newAnswerCache(): ReadCache {
  return new ReadCache({ maxEntries: 500, freshMs: 60 * 60_000, staleMs: 0 });
}

/**
 * A fingerprint of the instance's synced data (and, for the CX views, the usage and health
 * loads); null before the instance's first completed sync.
 */
export async function dataVersion(db: Db, instance: CrmInstance, withSources: boolean): Promise<string | null> {
  const { rows } = await sql<{ run: number | string | null; sources: string | null }>`
    select
      (select max(id) from crm_sync_runs where instance = ${instance} and status = 'ok') as run,
      ${
        withSources
          ? sql`coalesce((select cast(max(loaded_at) as text) from data_sources where name = 'health'), '-') || '/' ||
              coalesce((select cast(max(loaded_at) as text) from data_sources where name = 'usage'), '-')`
          : sql`''`
      } as sources
  `.execute(db);
  const row = rows[0];
  if (!row || row.run === null) return null;
  return `${instance}:${row.run}|${row.sources ?? ""}`;
}

/** The answer for `key` at this data version, computed once. */
export function memoized<T>(cache: ReadCache, key: string, version: string, compute: () => Promise<T>): Promise<T> {
  return cache.get(`${key}|${version}`, compute);
}

import "server-only";
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import type { Database } from "./schema";
import * as m0001 from "./migrations/0001_identity";
import * as m0002 from "./migrations/0002_connectors";
import * as m0003 from "./migrations/0003_crm";
import * as m0004 from "./migrations/0004_playground";
import * as m0005 from "./migrations/0005_saved_dashboards";
import * as m0006 from "./migrations/0006_draft_checks";
import * as m0007 from "./migrations/0007_trusted_authors";
import * as m0008 from "./migrations/0008_connection_renewal";
import * as m0009 from "./migrations/0009_render_reports";
import * as m0010 from "./migrations/0010_rate_limits";
import * as m0011 from "./migrations/0011_stream_slots";
import * as m0012 from "./migrations/0012_report_sources";
import * as m0013 from "./migrations/0013_stand_in_oauth";
import * as m0014 from "./migrations/0014_crm_sync_limits";
import * as m0015 from "./migrations/0015_connector_api_base";
import * as m0016 from "./migrations/0016_draft_renders";
import * as m0017 from "./migrations/0017_oauth";
import * as m0018 from "./migrations/0018_trust_origin";
import * as m0019 from "./migrations/0019_oauth_client_sources";
import * as m0020 from "./migrations/0020_snapshots";
import * as m0021 from "./migrations/0021_app_instances";

export type Dialect = "sqlite" | "postgres";

// Listed in code rather than read from disk, so the server bundle carries them.
const all = { "0001_identity": m0001, "0002_connectors": m0002, "0003_crm": m0003, "0004_playground": m0004, "0005_saved_dashboards": m0005, "0006_draft_checks": m0006, "0007_trusted_authors": m0007, "0008_connection_renewal": m0008, "0009_render_reports": m0009, "0010_rate_limits": m0010, "0011_stream_slots": m0011, "0012_report_sources": m0012, "0013_stand_in_oauth": m0013, "0014_crm_sync_limits": m0014, "0015_connector_api_base": m0015, "0016_draft_renders": m0016, "0017_oauth": m0017, "0018_trust_origin": m0018, "0019_oauth_client_sources": m0019, "0020_snapshots": m0020, "0021_app_instances": m0021 };

export const migrationNames = Object.keys(all);

/**
 * The migrations a database has applied, oldest first; empty for a database that has none (or no
 * migrator table yet). Read without migrating, so a tool can look before it changes anything.
 */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.rows.map((r) => r.name);
  } catch {
    return [];
  }
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(all).map(([name, m]) => [name, { up: (db) => m.up(db, this.dialect) }]),
    );
  }
}

/**
 * Applies pending migrations; the migrator's own lock keeps concurrent starts safe. Its catalogue
 * reads see only this database's own schema (./own-schema), so other schemas created or dropped
 * on the same server meanwhile cannot fail a start.
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect, schema?: string, upTo?: string): Promise<void> {
  // With a schema named, the migrator looks for its own tables there and nowhere else.
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ""} failed: ${String(error)}`, { cause: error });
  }
}

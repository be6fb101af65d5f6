import "server-only";
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from "kysely";

/**
 * Kysely's PostgreSQL introspector reads every schema on the server and calls
 * has_schema_privilege and pg_get_serial_sequence on each table it meets. When another schema
 * (another tenant, instance or test) is created or dropped during that read, the query fails
 * (undefined schema or table, or "cache lookup failed for namespace"), and the migrator reads
 * through it on every start. This one reads only the connection's own schema, straight from the
 * catalogue with no per-row functions, so what happens in other schemas cannot touch it.
 */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the catalogue is outside the app's schema type
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.rows;
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const rows = await sql<{ table: string; kind: string; schema: string; column: string; type: string; type_schema: string; not_null: boolean; has_default: boolean }>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column,
             t.typname as type, tns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default
        from pg_catalog.pg_namespace ns
        join pg_catalog.pg_class c on c.relnamespace = ns.oid
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type t on t.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
       where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
         and a.attnum > 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata["columns"][number][] }>();
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    for (const r of rows.rows) {
      if (!options.withInternalKyselyTables && internal.has(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) tables.set(r.table, (table = { name: r.table, schema: r.schema, isView: r.kind === "v", columns: [] }));
      table.columns.push({
        name: r.column,
        dataType: r.type,
        dataTypeSchema: r.type_schema,
        isNullable: !r.not_null,
        hasDefaultValue: r.has_default,
        // Serial columns carry a nextval default; the app's code never asks.
        isAutoIncrementing: false,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, introspecting only the connection's own schema. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches the dialect's signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

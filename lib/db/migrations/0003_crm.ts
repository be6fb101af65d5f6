import "server-only";
import type { Kysely } from "kysely";

// The normalised CRM store, its sync bookkeeping, and the product-usage and health sources.
// Every CRM table carries the instance (customers | users). `updated_at` is when this
// deployment last synced the row; `source_updated_at` is the portal's own modification time.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<void> {
  const float = dialect === "postgres" ? "double precision" : "real";
  const id = dialect === "postgres" ? "bigserial" : "integer";

  await db.schema
    .createTable("crm_owners")
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("source_updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("crm_owners_pk", ["instance", "id"])
    .execute();

  await db.schema
    .createTable("crm_companies")
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("domain", "text")
    .addColumn("industry", "text")
    .addColumn("employees", "integer")
    .addColumn("parent_company_id", "text")
    .addColumn("arr", float)
    .addColumn("tier", "text")
    .addColumn("owner_id", "text")
    .addColumn("product_school_id", "text")
    .addColumn("enrolment", "integer")
    .addColumn("churned_date", "text")
    .addColumn("source_updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("crm_companies_pk", ["instance", "id"])
    .execute();
  await db.schema.createIndex("crm_companies_owner_idx").on("crm_companies").columns(["instance", "owner_id"]).execute();
  await db.schema.createIndex("crm_companies_parent_idx").on("crm_companies").columns(["instance", "parent_company_id"]).execute();

  await db.schema
    .createTable("crm_contacts")
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("first_name", "text")
    .addColumn("last_name", "text")
    .addColumn("company_id", "text")
    .addColumn("lifecycle_stage", "text")
    .addColumn("source_updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("crm_contacts_pk", ["instance", "id"])
    .execute();

  await db.schema
    .createTable("crm_deals")
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("company_id", "text")
    .addColumn("amount", float)
    .addColumn("stage", "text")
    .addColumn("close_date", "text")
    .addColumn("owner_id", "text")
    .addColumn("source_updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("crm_deals_pk", ["instance", "id"])
    .execute();

  await db.schema
    .createTable("crm_engagements")
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("company_id", "text")
    .addColumn("owner_id", "text")
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("source_updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("crm_engagements_pk", ["instance", "id"])
    .execute();
  await db.schema.createIndex("crm_engagements_company_idx").on("crm_engagements").columns(["instance", "company_id", "occurred_at"]).execute();
  await db.schema.createIndex("crm_engagements_owner_idx").on("crm_engagements").columns(["instance", "owner_id", "occurred_at"]).execute();

  await db.schema
    .createTable("crm_sync_state")
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("object", "text", (c) => c.notNull())
    .addColumn("watermark", "bigint")
    .addPrimaryKeyConstraint("crm_sync_state_pk", ["instance", "object"])
    .execute();

  await db.schema
    .createTable("crm_sync_runs")
    .addColumn("id", id, (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("connector", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .addColumn("heartbeat_at", "bigint", (c) => c.notNull())
    .addColumn("rows_done", "integer", (c) => c.notNull())
    .addColumn("rows_expected", "integer")
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("crm_sync_runs_instance_idx").on("crm_sync_runs").columns(["instance", "started_at"]).execute();
  // "The latest completed run" is asked on every CRM and CX read.
  await db.schema.createIndex("crm_sync_runs_ok_idx").on("crm_sync_runs").columns(["instance", "status", "id"]).execute();

  // A lease, not a session lock: it works the same on both engines and across instances, and a
  // crashed holder's lease simply expires.
  await db.schema
    .createTable("crm_sync_locks")
    .addColumn("instance", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("usage_weeks")
    .addColumn("product_school_id", "text", (c) => c.notNull())
    .addColumn("week_start", "text", (c) => c.notNull())
    .addColumn("active_persons", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("usage_weeks_pk", ["product_school_id", "week_start"])
    .execute();

  await db.schema
    .createTable("health_scores")
    .addColumn("company_id", "text", (c) => c.notNull())
    .addColumn("date", "text", (c) => c.notNull())
    .addColumn("score", float)
    .addPrimaryKeyConstraint("health_scores_pk", ["company_id", "date"])
    .execute();

  /** A source that has never been loaded is "not wired". */
  await db.schema
    .createTable("data_sources")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("loaded_at", "bigint", (c) => c.notNull())
    .addColumn("rows", "integer", (c) => c.notNull())
    .execute();
}

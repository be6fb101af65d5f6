import "server-only";
import type { Kysely } from "kysely";

// Dashboards saved into people's spaces, with every revision kept.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("saved_dashboards")
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("saved_dashboards_pk", ["owner_id", "slug"])
    .execute();
  // A space lists newest first.
  await db.schema.createIndex("saved_dashboards_space_idx").on("saved_dashboards").columns(["owner_id", "updated_at"]).execute();

  await db.schema
    .createTable("saved_dashboard_revisions")
    .addColumn("owner_id", "bigint", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("note", "text")
    .addColumn("saved_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("saved_dashboard_revisions_pk", ["owner_id", "slug", "revision"])
    .addForeignKeyConstraint("saved_dashboard_revisions_fk", ["owner_id", "slug"], "saved_dashboards", ["owner_id", "slug"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();
}

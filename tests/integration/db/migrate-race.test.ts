import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDb } from "@/lib/db";
import { migrationNames } from "@/lib/db/migrate";
import { dropSchema, PG_URL } from "../support/backends";

// Several instances, test files or tenants share one PostgreSQL server, each in its own schema.
// A start migrates while other schemas are created and dropped; the migrator's catalogue
// introspection must not fail because of them.
describe("migrating while other schemas come and go on PostgreSQL", () => {
  it("every start migrates while another client creates and drops schemas with tables", async () => {
    let churning = true;
    let churned = 0;
    const churn = async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        while (churning) {
          const s = `churn_${randomBytes(5).toString("hex")}`;
          await client.query(`create schema "${s}"; create table "${s}".a (id serial primary key, v text); create table "${s}".b (id serial primary key)`);
          await client.query(`drop schema "${s}" cascade`);
          churned++;
        }
      } finally {
        await client.end();
      }
    };
    const churners = [churn(), churn(), churn()];
    const schemas: string[] = [];
    try {
      const batch = Array.from({ length: 4 }, () => `t_race_${randomBytes(5).toString("hex")}`);
      schemas.push(...batch);
      const opened = await Promise.all(batch.map((schema) => openDb({ kind: "postgres", url: PG_URL, schema })));
      for (const [i, o] of opened.entries()) {
        const { rows } = await o.pool!.query<{ n: number }>("select count(*)::int as n from kysely_migration");
        expect(rows[0]?.n).toBe(migrationNames.length);
        // What the migrator reads of the catalogue is this schema's tables and nothing else.
        const tables = await o.db.introspection.getTables({ withInternalKyselyTables: true });
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([batch[i]]));
        expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["kysely_migration", "users", "playground_drafts"]));
        await o.close();
      }
    } finally {
      churning = false;
      await Promise.all(churners);
      for (const s of schemas) await dropSchema(s);
    }
    expect(churned).toBeGreaterThan(10);
  }, 120_000);
});

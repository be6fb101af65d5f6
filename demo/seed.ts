import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { upsertUser } from "@/lib/auth/users";
import { demoUsers } from "./users";

// Seeds the demo tenant into storage once. The marker row makes a restart (or a second
// instance) skip work already done; bump SEED_VERSION when the seeded data changes shape.

export const SEED_VERSION = 1;

export interface SeedOptions {
  scale: number;
}

export async function seedDemo(db: Db, opts: SeedOptions): Promise<{ seeded: boolean }> {
  const marker = JSON.stringify({ version: SEED_VERSION, scale: opts.scale });
  const current = await db.selectFrom("meta").select("value").where("key", "=", "demo_seed").executeTakeFirst();
  if (current?.value === marker) return { seeded: false };

  for (const u of demoUsers) await upsertUser(db, { email: u.email, name: u.name, groups: u.groups });

  await db
    .insertInto("meta")
    .values({ key: "demo_seed", value: marker })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: sql`excluded.value` }))
    .execute();
  return { seeded: true };
}

import "server-only";
import type { Db } from "@/lib/db";
import type { StandInOAuthMemory } from "./oauth";

// The stand-ins' OAuth memory in the app's storage, shared by every instance and every day's
// mount: marking a value used is one insert that only the first caller wins, on SQLite and
// PostgreSQL alike. Rows past their expiry are swept now and then as marks are made.

/** Marks swept at most this often, and this many at a time. */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 500;

export function storedOAuthMemory(db: () => Promise<Db>, slug: string): StandInOAuthMemory {
  let sweptAt = 0;
  const sweep = async (d: Db, now: number) => {
    if (now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    const old = d.selectFrom("stand_in_oauth_marks").select("key").where("slug", "=", slug).where("expires_at", "<", now).limit(SWEEP_BATCH);
    await d.deleteFrom("stand_in_oauth_marks").where("slug", "=", slug).where("expires_at", "<", now).where("key", "in", old).execute();
  };
  return {
    async use(kind, key, until, now) {
      const d = await db();
      await sweep(d, now);
      const inserted = await d
        .insertInto("stand_in_oauth_marks")
        .values({ slug, kind, key, expires_at: until })
        .onConflict((oc) => oc.columns(["slug", "kind", "key"]).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? "first" : "again";
    },
    async revoke(grant, until) {
      const d = await db();
      await d
        .insertInto("stand_in_oauth_marks")
        .values({ slug, kind: "revoked", key: grant, expires_at: until })
        .onConflict((oc) => oc.columns(["slug", "kind", "key"]).doUpdateSet({ expires_at: until }))
        .execute();
    },
    async revoked(grant, now) {
      const d = await db();
      const row = await d
        .selectFrom("stand_in_oauth_marks")
        .select("expires_at")
        .where("slug", "=", slug)
        .where("kind", "=", "revoked")
        .where("key", "=", grant)
        .executeTakeFirst();
      return row !== undefined && Number(row.expires_at) > now;
    },
  };
}

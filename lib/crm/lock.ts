import "server-only";
import type { Db } from "@/lib/db";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";

// A lease per CRM instance in crm_sync_locks. Every step is a single statement whose affected
// row count decides the outcome, so it behaves the same on SQLite and PostgreSQL and between
// app instances sharing one database; a holder that dies simply stops renewing and its lease
// runs out.

/** Takes the lease when nobody holds it, when it has expired, or when `holder` already has it. */
export async function tryAcquire(db: Db, instance: CrmInstance, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
  const expires = now + ttlMs;
  const inserted = await db
    .insertInto("crm_sync_locks")
    .values({ instance, holder, expires_at: expires })
    .onConflict((oc) => oc.column("instance").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const updated = await db
    .updateTable("crm_sync_locks")
    .set({ holder, expires_at: expires })
    .where("instance", "=", instance)
    .where((eb) => eb.or([eb("expires_at", "<=", now), eb("holder", "=", holder)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Extends the lease; false when `holder` no longer has it (it expired and was taken). */
export async function renew(db: Db, instance: CrmInstance, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
  const updated = await db
    .updateTable("crm_sync_locks")
    .set({ expires_at: now + ttlMs })
    .where("instance", "=", instance)
    .where("holder", "=", holder)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Gives the lease up; a lease held by someone else is left alone. */
export async function release(db: Db, instance: CrmInstance, holder: string): Promise<void> {
  await db.deleteFrom("crm_sync_locks").where("instance", "=", instance).where("holder", "=", holder).execute();
}

/** Who holds the lease and until when, or null; for diagnostics and tests. */
export async function leaseOf(db: Db, instance: CrmInstance): Promise<{ holder: string; expiresAt: number } | null> {
  const row = await db.selectFrom("crm_sync_locks").select(["holder", "expires_at"]).where("instance", "=", instance).executeTakeFirst();
  return row ? { holder: row.holder, expiresAt: row.expires_at } : null;
}

import "server-only";
import type { Db } from "@/lib/db";

// Every query on the service's renders, one function each (migration 0016). A render belongs to
// a kept revision; the foreign key takes it along when the revision or the draft goes.

export interface StoredRender {
  revision: number;
  viewport: string;
  scenario: string;
  examples: string;
  report: string;
  width: number;
  height: number;
  created_at: number;
  bytes: number;
}

/** A render made already, without its PNG. */
export async function findRender(db: Db, draftId: string, revision: number, key: string): Promise<StoredRender | undefined> {
  const row = await db
    .selectFrom("draft_renders")
    .select(["revision", "viewport", "scenario", "examples", "report", "width", "height", "created_at", "png"])
    .where("draft_id", "=", draftId)
    .where("revision", "=", revision)
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row) return undefined;
  const { png, ...rest } = row;
  return { ...rest, created_at: Number(rest.created_at), bytes: png.byteLength };
}

/** A render's PNG. */
export async function renderPng(db: Db, draftId: string, revision: number, key: string): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom("draft_renders").select("png").where("draft_id", "=", draftId).where("revision", "=", revision).where("key", "=", key).executeTakeFirst();
  return row?.png;
}

interface NewRender {
  draftId: string;
  revision: number;
  key: string;
  viewport: string;
  scenario: string;
  examples: string;
  report: string;
  png: Uint8Array;
  width: number;
  height: number;
  now: number;
}

/**
 * Stores a render; false when its revision is no longer kept (pruned while it was drawn). Two
 * instances drawing the same state at once store the first; the second keeps what is there.
 */
export async function storeRender(db: Db, r: NewRender): Promise<boolean> {
  const kept = await db.selectFrom("playground_draft_revisions").select("revision").where("draft_id", "=", r.draftId).where("revision", "=", r.revision).executeTakeFirst();
  if (!kept) return false;
  await db
    .insertInto("draft_renders")
    .values({
      draft_id: r.draftId,
      revision: r.revision,
      key: r.key,
      viewport: r.viewport,
      scenario: r.scenario,
      examples: r.examples,
      report: r.report,
      png: r.png,
      width: r.width,
      height: r.height,
      created_at: r.now,
    })
    .onConflict((oc) => oc.columns(["draft_id", "revision", "key"]).doNothing())
    .execute();
  return true;
}

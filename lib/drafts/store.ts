import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import type { PlaygroundDraftsTable } from "@/lib/db/schema";

// Every query on drafts, one function each. Times are epoch ms; `cutoff` is the oldest
// `updated_at` still alive (older drafts count as gone even before the sweep removes them).

export type DraftRow = PlaygroundDraftsTable;

interface NewDraft {
  id: string;
  writeHash: string;
  html: string;
  dataMode: string;
  scenario: string;
  examples: string;
  dash: string | null;
  /** The static check's result for `html` (see analysis.ts). */
  checkJson: string;
  now: number;
}

interface DraftChange {
  /** Absent: the HTML stays, and so does its stored check result. */
  html?: string;
  checkJson?: string;
  scenario?: string;
  examples?: string;
  dash?: string | null;
  baseRevision?: number;
  now: number;
}

type UpdateOutcome =
  | { kind: "updated"; row: DraftRow }
  | { kind: "missing" }
  | { kind: "data_mode_fixed"; dataMode: string }
  | { kind: "conflict"; revision: number };

/** Runs inside the update's transaction, after the new revision is written. */
type InTransaction = (trx: Db, id: string, revision: number) => Promise<void>;

interface DraftRowUpdate {
  /** The hash of the write token the change came with. */
  writeHash: string;
  /** The data mode the writer expects; a draft's mode is fixed once made, so another one is refused. */
  dataMode: string | undefined;
  change: DraftChange;
  /** The oldest `updated_at` still alive. */
  cutoff: number;
  /** How many revisions of history to keep, the new one included. */
  historyKeep: number;
  afterWrite: InTransaction;
}

export async function insertDraft(db: Db, d: NewDraft, afterWrite: InTransaction): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("playground_drafts")
      .values({
        id: d.id,
        write_hash: d.writeHash,
        revision: 1,
        html: d.html,
        data_mode: d.dataMode,
        scenario: d.scenario,
        examples: d.examples,
        dash: d.dash,
        created_at: d.now,
        updated_at: d.now,
      })
      .execute();
    await trx
      .insertInto("playground_draft_revisions")
      .values({ draft_id: d.id, revision: 1, html: d.html, scenario: d.scenario, examples: d.examples, dash: d.dash, created_at: d.now, check_json: d.checkJson })
      .execute();
    await afterWrite(trx, d.id, 1);
  });
}

export async function findByReadId(db: Db, id: string, cutoff: number): Promise<DraftRow | undefined> {
  return db.selectFrom("playground_drafts").selectAll().where("id", "=", id).where("updated_at", ">=", cutoff).executeTakeFirst();
}

/** The current revision of a live draft, without its html. */
export async function currentRevision(db: Db, id: string, cutoff: number): Promise<{ revision: number; updated_at: number } | undefined> {
  return db.selectFrom("playground_drafts").select(["revision", "updated_at"]).where("id", "=", id).where("updated_at", ">=", cutoff).executeTakeFirst();
}

/** The live draft and its current revision's stored check result (null when none is stored). */
export async function findWithCheck(db: Db, id: string, cutoff: number): Promise<(DraftRow & { check_json: string | null }) | undefined> {
  return db
    .selectFrom("playground_drafts as d")
    .leftJoin("playground_draft_revisions as r", (join) => join.onRef("r.draft_id", "=", "d.id").onRef("r.revision", "=", "d.revision"))
    .selectAll("d")
    .select("r.check_json")
    .where("d.id", "=", id)
    .where("d.updated_at", ">=", cutoff)
    .executeTakeFirst();
}

/** The stored check result of one revision, or null. */
export async function findCheck(db: Db, id: string, revision: number): Promise<string | null> {
  const row = await db
    .selectFrom("playground_draft_revisions")
    .select("check_json")
    .where("draft_id", "=", id)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return row?.check_json ?? null;
}

/** Fills in the check result of a revision stored without one; a result already there stays. */
export async function storeCheck(db: Db, id: string, revision: number, checkJson: string): Promise<void> {
  await db
    .updateTable("playground_draft_revisions")
    .set({ check_json: checkJson })
    .where("draft_id", "=", id)
    .where("revision", "=", revision)
    .where("check_json", "is", null)
    .execute();
}

/**
 * One accepted update: the revision is incremented by the database itself
 * (`revision = revision + 1 … returning`), so concurrent updates each get their own revision;
 * the history row for it and whatever `afterWrite` does commit together with it.
 */
export async function updateDraftRow(db: Db, { writeHash, dataMode, change, cutoff, historyKeep, afterWrite }: DraftRowUpdate): Promise<UpdateOutcome> {
  return db.transaction().execute(async (trx): Promise<UpdateOutcome> => {
    const found = await trx
      .selectFrom("playground_drafts")
      .select(["id", "data_mode"])
      .where("write_hash", "=", writeHash)
      .where("updated_at", ">=", cutoff)
      .executeTakeFirst();
    if (!found) return { kind: "missing" };
    if (dataMode !== undefined && dataMode !== found.data_mode) return { kind: "data_mode_fixed", dataMode: found.data_mode };

    let update = trx
      .updateTable("playground_drafts")
      .set((eb) => ({
        revision: eb("revision", "+", 1),
        ...(change.html !== undefined ? { html: change.html } : {}),
        updated_at: change.now,
        ...(change.scenario !== undefined ? { scenario: change.scenario } : {}),
        ...(change.examples !== undefined ? { examples: change.examples } : {}),
        ...(change.dash !== undefined ? { dash: change.dash } : {}),
      }))
      .where("id", "=", found.id);
    if (change.baseRevision !== undefined) update = update.where("revision", "=", change.baseRevision);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) {
      const now = await trx.selectFrom("playground_drafts").select("revision").where("id", "=", found.id).executeTakeFirst();
      return now ? { kind: "conflict", revision: now.revision } : { kind: "missing" };
    }

    // Without new HTML the revision keeps the previous one's check result (null when that had none).
    const checkJson =
      change.checkJson ??
      (await trx.selectFrom("playground_draft_revisions").select("check_json").where("draft_id", "=", row.id).where("revision", "=", row.revision - 1).executeTakeFirst())
        ?.check_json ??
      null;
    await trx
      .insertInto("playground_draft_revisions")
      .values({
        draft_id: row.id,
        revision: row.revision,
        html: row.html,
        scenario: row.scenario,
        examples: row.examples,
        dash: row.dash,
        created_at: change.now,
        check_json: checkJson,
      })
      .execute();
    await trx
      .deleteFrom("playground_draft_revisions")
      .where("draft_id", "=", row.id)
      .where("revision", "<=", row.revision - historyKeep)
      .execute();
    await afterWrite(trx, row.id, row.revision);
    return { kind: "updated", row };
  });
}

interface RevisionRow {
  revision: number;
  html: string;
  scenario: string;
  examples: string;
  dash: string | null;
  created_at: number;
}

/** Up to `limit` kept revisions older than `before` (all, when null), newest first. */
export async function listRevisionsBefore(db: Db, id: string, before: number | null, limit: number): Promise<RevisionRow[]> {
  let q = db
    .selectFrom("playground_draft_revisions")
    .select(["revision", "html", "scenario", "examples", "dash", "created_at"])
    .where("draft_id", "=", id);
  if (before !== null) q = q.where("revision", "<", before);
  return q.orderBy("revision", "desc").limit(limit).execute();
}

/** One kept revision of a live draft, with the draft's current revision and data mode; undefined when either is gone. */
export async function findRevision(
  db: Db,
  id: string,
  revision: number | null,
  cutoff: number,
): Promise<{ current: number; data_mode: string; row: RevisionRow | undefined } | undefined> {
  const draft = await db.selectFrom("playground_drafts").select(["revision", "data_mode"]).where("id", "=", id).where("updated_at", ">=", cutoff).executeTakeFirst();
  if (!draft) return undefined;
  const row = await db
    .selectFrom("playground_draft_revisions")
    .select(["revision", "html", "scenario", "examples", "dash", "created_at"])
    .where("draft_id", "=", id)
    .where("revision", "=", revision ?? draft.revision)
    .executeTakeFirst();
  return { current: draft.revision, data_mode: draft.data_mode, row };
}

/** Whether a live draft has this read id, without reading its html. */
export async function isLive(db: Db, id: string, cutoff: number): Promise<boolean> {
  const row = await db.selectFrom("playground_drafts").select("id").where("id", "=", id).where("updated_at", ">=", cutoff).executeTakeFirst();
  return row !== undefined;
}

/**
 * What names a live draft: its dash and the start of its html, where a <title> would be (a page
 * title needs no more than that of a document of up to 2 MiB).
 */
export async function findNaming(db: Db, id: string, cutoff: number, headChars: number): Promise<{ dash: string | null; head: string } | undefined> {
  return db
    .selectFrom("playground_drafts")
    .select(["dash", sql<string>`substr(html, 1, ${headChars})`.as("head")])
    .where("id", "=", id)
    .where("updated_at", ">=", cutoff)
    .executeTakeFirst();
}

/** Deletes up to `limit` drafts idle since before `cutoff` (their history goes with them). */
export async function deleteIdle(db: Db, cutoff: number, limit: number): Promise<string[]> {
  const oldest = db.selectFrom("playground_drafts").select("id").where("updated_at", "<", cutoff).orderBy("updated_at").limit(limit);
  const rows = await db.deleteFrom("playground_drafts").where("id", "in", oldest).where("updated_at", "<", cutoff).returning("id").execute();
  return rows.map((r) => r.id);
}

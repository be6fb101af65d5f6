import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import type { Dialect } from "@/lib/db/migrate";

// Every query on render reports, one function each. A report row belongs to one kept revision
// (migration 0009's foreign key cascades), so pruning the history or sweeping a draft takes its
// reports along; the functions here bound what one draft can hold besides.

interface ReportTarget {
  revision: number;
  data_mode: string;
}

/** The live draft's current revision and data mode, or undefined (unknown, deleted or expired). */
export async function findReportTarget(db: Db, id: string, cutoff: number): Promise<ReportTarget | undefined> {
  return db.selectFrom("playground_drafts").select(["revision", "data_mode"]).where("id", "=", id).where("updated_at", ">=", cutoff).executeTakeFirst();
}

interface NewReport {
  draftId: string;
  revision: number;
  /** The stored report's JSON. */
  report: string;
  source: { kind: "service" | "author" | "watcher"; id: string };
  failing: boolean;
  now: number;
  cutoff: number;
  /** Only revisions from this one up to the current one take reports; older ones lose theirs. */
  recent: number;
  perRevision: number;
  perSource: number;
}

type InsertOutcome =
  | { kind: "stored" }
  | { kind: "missing" }
  | { kind: "live" }
  | { kind: "not_recent"; oldest: number; current: number };

/**
 * Stores one report and prunes in the same transaction: past `perSource` reports of its source
 * for the revision and parameter set, and past `perRevision` reports of the revision, the least telling go (anyone's
 * before the service's own, a clean report before one with errors, a watcher's before the
 * author's, the older before the newer), so no number of clean reports from anyone can push out
 * a report that found errors, nor anything posted push out the service's; and reports of
 * revisions before the recent ones go. On PostgreSQL the
 * revision row is share-locked first, so an update pruning it cannot slip in between the check
 * and the insert (SQLite runs one writer at a time).
 */
export async function insertReport(db: Db, dialect: Dialect, r: NewReport): Promise<InsertOutcome> {
  return db.transaction().execute(async (trx): Promise<InsertOutcome> => {
    const draft = await findReportTarget(trx, r.draftId, r.cutoff);
    if (!draft) return { kind: "missing" };
    if (draft.data_mode !== "demo") return { kind: "live" };
    const oldest = Math.max(1, draft.revision - r.recent + 1);
    if (r.revision < oldest || r.revision > draft.revision) return { kind: "not_recent", oldest, current: draft.revision };
    let kept = trx.selectFrom("playground_draft_revisions").select("revision").where("draft_id", "=", r.draftId).where("revision", "=", r.revision);
    if (dialect === "postgres") kept = kept.forKeyShare();
    // The history keeps fewer revisions than reports are taken for (DRAFT_HISTORY_KEEP < 5).
    if (!(await kept.executeTakeFirst())) return { kind: "not_recent", oldest, current: draft.revision };

    await trx
      .insertInto("playground_draft_reports")
      .values({ draft_id: r.draftId, revision: r.revision, report: r.report, created_at: r.now, source_kind: r.source.kind, source_id: r.source.id, failing: r.failing ? 1 : 0 })
      .execute();
    const ofRevision = () => trx.selectFrom("playground_draft_reports").select("id").where("draft_id", "=", r.draftId).where("revision", "=", r.revision);
    // Per source and parameter set: a render with ?p.district=A does not push out the one with B.
    const ofSource = await trx
      .selectFrom("playground_draft_reports")
      .select(["id", "failing", "report"])
      .where("draft_id", "=", r.draftId)
      .where("revision", "=", r.revision)
      .where("source_id", "=", r.source.id)
      .orderBy("failing", "desc")
      .orderBy("id", "desc")
      .execute();
    const perSet = new Map<string, number>();
    const surplus: number[] = [];
    for (const row of ofSource) {
      const set = paramSetOf(row.report);
      const n = perSet.get(set) ?? 0;
      perSet.set(set, n + 1);
      if (n >= r.perSource) surplus.push(Number(row.id));
    }
    if (surplus.length > 0) await trx.deleteFrom("playground_draft_reports").where("id", "in", surplus).execute();
    // The service's own renders first: nothing posted from outside displaces them.
    const keptOfRevision = ofRevision()
      .orderBy(sql`case when source_kind = 'service' then 1 else 0 end`, "desc")
      .orderBy("failing", "desc")
      .orderBy(sql`case when source_kind = 'author' then 1 else 0 end`, "desc")
      .orderBy("id", "desc")
      .limit(r.perRevision);
    await trx.deleteFrom("playground_draft_reports").where("draft_id", "=", r.draftId).where("revision", "=", r.revision).where("id", "not in", keptOfRevision).execute();
    await trx.deleteFrom("playground_draft_reports").where("draft_id", "=", r.draftId).where("revision", "<", oldest).execute();
    return { kind: "stored" };
  });
}

/** A stored report's parameter set, as a key: "" for none (and for reports stored before there were any). */
function paramSetOf(report: string): string {
  try {
    const params = (JSON.parse(report) as { params?: unknown }).params;
    if (typeof params !== "object" || params === null || Object.keys(params).length === 0) return "";
    return JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  } catch {
    return "";
  }
}

interface StoredReport {
  /** The report's JSON. */
  report: string;
  source_kind: string;
  source_id: string;
}

/** The stored reports of one revision, newest first. */
export async function listReports(db: Db, draftId: string, revision: number, limit: number): Promise<StoredReport[]> {
  return db
    .selectFrom("playground_draft_reports")
    .select(["report", "source_kind", "source_id"])
    .where("draft_id", "=", draftId)
    .where("revision", "=", revision)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** The read id of the draft whose write token hashes to `writeHash`, if it is one. */
export async function findByWriteHash(db: Db, writeHash: string, cutoff: number): Promise<string | undefined> {
  const row = await db.selectFrom("playground_drafts").select("id").where("write_hash", "=", writeHash).where("updated_at", ">=", cutoff).executeTakeFirst();
  return row?.id;
}

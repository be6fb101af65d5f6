import path from "node:path";
import Database from "better-sqlite3";

// The demo server's own storage (a SQLite file, see playwright.config.ts), for the few tests that
// look at or set what the server stores about a demo person's connections or saved dashboards,
// where no page can.

const file = path.resolve(".data/e2e-demo/app.sqlite");

function withDb<T>(run: (db: Database.Database) => T): T {
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  try {
    return run(db);
  } finally {
    db.close();
  }
}

export interface StoredConnection {
  expires_at: number | null;
  refreshed_at: number | null;
  reconnect_reason: string | null;
}

export function storedConnection(email: string, slug: string): StoredConnection | undefined {
  return withDb(
    (db) =>
      db
        .prepare(
          "select t.expires_at, t.refreshed_at, t.reconnect_reason from connector_tokens t join users u on u.id = t.user_id where u.email = ? and t.slug = ?",
        )
        .get(email, slug) as StoredConnection | undefined,
  );
}

/** Marks a stored connection the way the app does when a vendor refuses to renew it. */
export function markForReconnect(email: string, slug: string, reason: string, at: number): void {
  withDb((db) =>
    db
      .prepare("update connector_tokens set reconnect_reason = ?, reconnect_at = ? where slug = ? and user_id = (select id from users where email = ?)")
      .run(reason, at, slug, email),
  );
}

/** How many render reports the server holds for a draft, of any revision. */
export function storedReportCount(draftId: string): number {
  return withDb((db) => (db.prepare("select count(*) as n from playground_draft_reports where draft_id = ?").get(draftId) as { n: number }).n);
}

/**
 * Stores a time the app cannot read on every revision of a saved dashboard, as a damaged row
 * would be, and answers how to put the stored times back.
 */
export function damageSavedTimes(handle: string, slug: string): () => void {
  return withDb((db) => {
    const where = "owner_id = (select id from users where handle = ?) and slug = ?";
    const kept = db.prepare(`select revision, saved_at from saved_dashboard_revisions where ${where}`).all(handle, slug) as { revision: number; saved_at: number }[];
    if (kept.length === 0) throw new Error(`no saved dashboard /~/${handle}/${slug}`);
    db.prepare(`update saved_dashboard_revisions set saved_at = 'not a time' where ${where}`).run(handle, slug);
    return () =>
      withDb((again) => {
        const put = again.prepare(`update saved_dashboard_revisions set saved_at = ? where ${where} and revision = ?`);
        for (const r of kept) put.run(r.saved_at, handle, slug, r.revision);
      });
  });
}

/**
 * Copies a saved dashboard, every revision, to a slug and title of its own in the same space, so a
 * test may damage the copy while the other tests go on reading the original (and finding it by its
 * title); answers how to remove it.
 */
export function copySavedDashboard(handle: string, slug: string, copy: { slug: string; title: string }): () => void {
  const tables = ["saved_dashboards", "saved_dashboard_revisions"];
  const where = "owner_id = (select id from users where handle = ?) and slug = ?";
  withDb((db) => {
    db.transaction(() => {
      for (const table of tables) {
        const columns = (db.prepare(`select name from pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
        const given: Record<string, string> = { slug: copy.slug, title: copy.title };
        const values = columns.map((c) => (c in given ? `@${c}` : c));
        const copied = db
          .prepare(`insert into ${table} (${columns.join(", ")}) select ${values.join(", ")} from ${table} where owner_id = (select id from users where handle = @handle) and slug = @from`)
          .run({ ...Object.fromEntries(columns.filter((c) => c in given).map((c) => [c, given[c]])), handle, from: slug });
        if (copied.changes === 0) throw new Error(`no saved dashboard /~/${handle}/${slug}`);
      }
    })();
  });
  return () =>
    withDb((db) => {
      for (const table of [...tables].reverse()) db.prepare(`delete from ${table} where ${where}`).run(handle, copy.slug);
    });
}

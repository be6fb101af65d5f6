import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { htmlTitle, SLUG_PATTERN, TITLE_MAX } from "./slug";

// Saved dashboards: one row per (owner, slug) naming the latest revision, and every revision's
// HTML kept beside it. A save never replaces an earlier revision; a restore is a new one.


/** The same ceiling as a playground draft: anything a draft can hold can be saved. */
export const SAVED_HTML_MAX_BYTES = 2 * 1024 * 1024;

interface SavedSummary {
  path: string;
  handle: string;
  slug: string;
  title: string;
  revision: number;
  savedAt: string;
}

interface SavedRevision {
  revision: number;
  title: string;
  note: string | null;
  savedAt: string;
}

interface SavedDashboard extends SavedSummary {
  owner: { id: number; handle: string; name: string };
  /** The revision shown: the latest unless an earlier one was asked for. */
  shown: { revision: number; html: string; savedAt: string; note: string | null };
}

function dashboardPath(handle: string, slug: string): string {
  return `/~/${handle}/${slug}`;
}

/** The dashboard's own `<title>`, else its slug: what the space lists and the header shows. */
export function titleOf(html: string, slug: string): string {
  return (htmlTitle(html) ?? slug).slice(0, TITLE_MAX);
}

interface SaveInput {
  ownerId: number;
  handle: string;
  slug: string;
  html: string;
  note?: string | null;
  now?: number;
}

interface SaveResult {
  path: string;
  revision: number;
  /** Epoch milliseconds, like the contract's other times. */
  savedAt: number;
  created: boolean;
}

/**
 * Adds a revision. The upsert takes the next revision number atomically, so concurrent saves
 * each get their own revision and none is lost; the revision row is written in the same
 * transaction, so the latest revision always has its HTML.
 */
export async function saveDashboard(db: Db, input: SaveInput): Promise<SaveResult> {
  const now = input.now ?? Date.now();
  const title = titleOf(input.html, input.slug);
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto("saved_dashboards")
      .values({ owner_id: input.ownerId, slug: input.slug, title, revision: 1, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.columns(["owner_id", "slug"]).doUpdateSet({
          revision: sql<number>`saved_dashboards.revision + 1`,
          title,
          updated_at: now,
        }),
      )
      .returning(["revision"])
      .executeTakeFirstOrThrow();
    const revision = Number(row.revision);
    await tx
      .insertInto("saved_dashboard_revisions")
      .values({
        owner_id: input.ownerId,
        slug: input.slug,
        revision,
        title,
        html: input.html,
        note: input.note ?? null,
        saved_at: now,
      })
      .execute();
    return { path: dashboardPath(input.handle, input.slug), revision, savedAt: now, created: revision === 1 };
  });
}

/** A person's dashboards, most recently saved first. */
export async function listSpace(db: Db, ownerId: number, handle: string, limit = 500): Promise<SavedSummary[]> {
  const rows = await db
    .selectFrom("saved_dashboards")
    .select(["slug", "title", "revision", "updated_at"])
    .where("owner_id", "=", ownerId)
    .orderBy("updated_at", "desc")
    .orderBy("slug")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    path: dashboardPath(handle, r.slug),
    handle,
    slug: r.slug,
    title: r.title,
    revision: Number(r.revision),
    savedAt: new Date(Number(r.updated_at)).toISOString(),
  }));
}

export async function ownerByHandle(db: Db, handle: string): Promise<{ id: number; handle: string; name: string } | null> {
  const row = await db.selectFrom("users").select(["id", "handle", "name"]).where("handle", "=", handle).executeTakeFirst();
  return row ? { id: Number(row.id), handle: row.handle, name: row.name } : null;
}

/** One dashboard with the revision to show (the latest by default), or null. */
export async function loadDashboard(db: Db, handle: string, slug: string, revision?: number): Promise<SavedDashboard | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const owner = await ownerByHandle(db, handle);
  if (!owner) return null;
  const head = await db
    .selectFrom("saved_dashboards")
    .select(["title", "revision", "updated_at"])
    .where("owner_id", "=", owner.id)
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!head) return null;
  const wanted = revision ?? Number(head.revision);
  const rev = await db
    .selectFrom("saved_dashboard_revisions")
    .select(["revision", "html", "saved_at", "note"])
    .where("owner_id", "=", owner.id)
    .where("slug", "=", slug)
    .where("revision", "=", wanted)
    .executeTakeFirst();
  if (!rev) return null;
  return {
    path: dashboardPath(owner.handle, slug),
    handle: owner.handle,
    slug,
    title: head.title,
    revision: Number(head.revision),
    savedAt: new Date(Number(head.updated_at)).toISOString(),
    owner,
    shown: { revision: Number(rev.revision), html: rev.html, savedAt: new Date(Number(rev.saved_at)).toISOString(), note: rev.note },
  };
}

/** Every revision, newest first, without the HTML. */
export async function revisionsOf(db: Db, ownerId: number, slug: string): Promise<SavedRevision[]> {
  const rows = await db
    .selectFrom("saved_dashboard_revisions")
    .select(["revision", "title", "note", "saved_at"])
    .where("owner_id", "=", ownerId)
    .where("slug", "=", slug)
    .orderBy("revision", "desc")
    .execute();
  return rows.map((r) => ({
    revision: Number(r.revision),
    title: r.title,
    note: r.note,
    savedAt: new Date(Number(r.saved_at)).toISOString(),
  }));
}

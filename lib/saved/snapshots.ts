import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { SessionUser } from "@/lib/auth/session";
import type { RenderViewport } from "@/lib/contract/renders";
import { ApiError } from "@/lib/contract/errors";
import type { Db } from "@/lib/db";
import { SNAPSHOT_VISIBILITIES } from "@/lib/contract/snapshots";

// Snapshots: a person's own saved dashboard, drawn by the service on their data at one moment
// (lib/saved/drawings.ts) and kept as that inert document, at an address nobody can guess. It is
// shown as it was stored, in a frame that may run nothing, and reads nobody's data again: what
// the owner saw is all it holds, so sharing it shares exactly that and nothing more.
//
// Private to its owner until they share it, with anyone signed in or anyone holding the link.
// It expires (7 days unless the owner chose otherwise, 90 at most) and the owner may revoke it
// sooner; either way its document and picture are deleted and the row is kept only so that the
// address answers "gone" (410) rather than "never was". Whoever may not open it learns nothing,
// not even that it exists (404).

export type SnapshotVisibility = (typeof SNAPSHOT_VISIBILITIES)[number];

/** Snapshots one person may have open at once; each holds a document of up to a few hundred KB. */
export const SNAPSHOTS_MAX = 100;
const DAY_MS = 86_400_000;
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

export function snapshotPath(id: string): string {
  return `/snapshots/${id}`;
}

export interface SnapshotSummary {
  id: string;
  path: string;
  /** The saved dashboard it was drawn from. */
  dashboard: string;
  title: string;
  revision: number;
  viewport: RenderViewport;
  visibility: SnapshotVisibility;
  /** ISO 8601 times. */
  drawnAt: string;
  createdAt: string;
  expiresAt: string;
  picture: boolean;
}

export interface Snapshot extends SnapshotSummary {
  owner: { id: number; handle: string; name: string };
  html: string;
  height: number;
}

type Row = {
  id: string;
  owner_id: number;
  handle: string;
  name: string;
  slug: string;
  revision: number;
  title: string;
  viewport: string;
  visibility: string;
  html: string;
  height: number;
  has_png: number | boolean | string;
  drawn_at: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
};

const iso = (ms: unknown) => new Date(Number(ms)).toISOString();

function summaryOf(r: Row): SnapshotSummary {
  return {
    id: r.id,
    path: snapshotPath(r.id),
    dashboard: `/~/${r.handle}/${r.slug}`,
    title: r.title,
    revision: Number(r.revision),
    viewport: r.viewport === "phone" ? "phone" : "desktop",
    visibility: (SNAPSHOT_VISIBILITIES as readonly string[]).includes(r.visibility) ? (r.visibility as SnapshotVisibility) : "private",
    drawnAt: iso(r.drawn_at),
    createdAt: iso(r.created_at),
    expiresAt: iso(r.expires_at),
    picture: r.has_png === true || Number(r.has_png) === 1,
  };
}

function selectRows(db: Db) {
  return db
    .selectFrom("snapshots")
    .innerJoin("users", "users.id", "snapshots.owner_id")
    .select([
      "snapshots.id",
      "snapshots.owner_id",
      "users.handle",
      "users.name",
      "snapshots.slug",
      "snapshots.revision",
      "snapshots.title",
      "snapshots.viewport",
      "snapshots.visibility",
      "snapshots.html",
      "snapshots.height",
      sql<number | boolean>`case when snapshots.png is null then 0 else 1 end`.as("has_png"),
      "snapshots.drawn_at",
      "snapshots.created_at",
      "snapshots.expires_at",
      "snapshots.revoked_at",
    ]);
}

/**
 * Empties the document and picture of every snapshot that has ended (revoked, or past its
 * expiry): nothing it showed stays stored once nobody may see it.
 */
async function forgetEnded(db: Db, now = Date.now()): Promise<void> {
  await db
    .updateTable("snapshots")
    .set({ html: "", png: null })
    .where((eb) => eb.or([eb("expires_at", "<=", now), eb("revoked_at", "is not", null)]))
    .where((eb) => eb.or([eb("html", "<>", ""), eb("png", "is not", null)]))
    .execute();
}

interface NewSnapshot {
  ownerId: number;
  slug: string;
  revision: number;
  title: string;
  viewport: RenderViewport;
  visibility: SnapshotVisibility;
  html: string;
  height: number;
  png?: Uint8Array | null;
  drawnAt: number;
  expiresInDays: number;
}

/** Stores a drawing as a snapshot; refused past SNAPSHOTS_MAX open ones. */
export async function storeSnapshot(db: Db, input: NewSnapshot, now = Date.now()): Promise<SnapshotSummary> {
  await forgetEnded(db, now);
  const id = randomBytes(24).toString("base64url");
  await db.transaction().execute(async (tx) => {
    const open = await tx
      .selectFrom("snapshots")
      .select(sql<number>`count(*)`.as("n"))
      .where("owner_id", "=", input.ownerId)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= SNAPSHOTS_MAX) {
      throw new ApiError("invalid_request", `You have ${SNAPSHOTS_MAX} snapshots open, the most there can be; revoke one on /account first.`);
    }
    await tx
      .insertInto("snapshots")
      .values({
        id,
        owner_id: input.ownerId,
        slug: input.slug,
        revision: input.revision,
        title: input.title,
        viewport: input.viewport,
        visibility: input.visibility,
        html: input.html,
        height: input.height,
        png: input.png ?? null,
        drawn_at: input.drawnAt,
        created_at: now,
        expires_at: now + input.expiresInDays * DAY_MS,
        revoked_at: null,
      })
      .execute();
  });
  const row = (await selectRows(db).where("snapshots.id", "=", id).executeTakeFirstOrThrow()) as Row;
  return summaryOf(row);
}

/** The person's open snapshots, newest first. */
export async function snapshotsOf(db: Db, ownerId: number, now = Date.now()): Promise<SnapshotSummary[]> {
  const rows = (await selectRows(db)
    .where("snapshots.owner_id", "=", ownerId)
    .where("snapshots.revoked_at", "is", null)
    .where("snapshots.expires_at", ">", now)
    .orderBy("snapshots.created_at", "desc")
    .orderBy("snapshots.id")
    .execute()) as Row[];
  return rows.map(summaryOf);
}

export type SnapshotOpened =
  | { kind: "shown"; snapshot: Snapshot; own: boolean }
  | { kind: "gone"; summary: SnapshotSummary; owner: { handle: string; name: string }; why: "revoked" | "expired"; own: boolean }
  | { kind: "hidden" };

function mayOpen(r: Row, viewer: SessionUser | null): boolean {
  if (viewer && Number(r.owner_id) === viewer.id) return true;
  if (r.visibility === "link") return true;
  return r.visibility === "signed_in" && viewer !== null;
}

/**
 * A snapshot as `viewer` (null: signed out) may see it. Whoever may not open it is told nothing
 * (hidden), even that it ended; whoever may is told it is gone once it has ended.
 */
export async function openSnapshot(db: Db, id: string, viewer: SessionUser | null, now = Date.now()): Promise<SnapshotOpened> {
  if (!TOKEN.test(id)) return { kind: "hidden" };
  const row = (await selectRows(db).where("snapshots.id", "=", id).executeTakeFirst()) as Row | undefined;
  if (!row || !mayOpen(row, viewer)) return { kind: "hidden" };
  const own = viewer !== null && Number(row.owner_id) === viewer.id;
  const ended = row.revoked_at !== null ? "revoked" : Number(row.expires_at) <= now ? "expired" : null;
  if (ended) {
    if (row.html !== "" || row.has_png) await forgetEnded(db, now);
    return { kind: "gone", summary: { ...summaryOf(row), picture: false }, owner: { handle: row.handle, name: row.name }, why: ended, own };
  }
  return {
    kind: "shown",
    own,
    snapshot: { ...summaryOf(row), owner: { id: Number(row.owner_id), handle: row.handle, name: row.name }, html: row.html, height: Number(row.height) },
  };
}

/** The picture of a snapshot `viewer` may open and that has not ended, or why there is none to see. */
export async function snapshotPicture(db: Db, id: string, viewer: SessionUser | null, now = Date.now()): Promise<{ kind: "picture"; png: Uint8Array; snapshot: Snapshot } | SnapshotOpened> {
  const opened = await openSnapshot(db, id, viewer, now);
  if (opened.kind !== "shown" || !opened.snapshot.picture) return opened;
  const row = await db.selectFrom("snapshots").select("png").where("id", "=", id).executeTakeFirst();
  return row?.png ? { kind: "picture", png: row.png, snapshot: opened.snapshot } : opened;
}

/** The owner's open snapshot by id, or not found: someone else's is as unknown as a made-up one. */
async function ownOpen(db: Db, ownerId: number, id: string, now: number): Promise<Row> {
  const row = (await selectRows(db).where("snapshots.id", "=", id).where("snapshots.owner_id", "=", ownerId).executeTakeFirst()) as Row | undefined;
  if (!row) throw new ApiError("not_found", "You have no snapshot with that token.");
  if (row.revoked_at !== null || Number(row.expires_at) <= now) {
    throw new ApiError("snapshot_gone", row.revoked_at !== null ? "You revoked this snapshot; freeze a new one to share again." : "This snapshot has expired; freeze a new one to share again.");
  }
  return row;
}

export async function shareSnapshot(db: Db, ownerId: number, id: string, visibility: SnapshotVisibility, now = Date.now()): Promise<SnapshotSummary> {
  const row = await ownOpen(db, ownerId, id, now);
  await db.updateTable("snapshots").set({ visibility }).where("id", "=", id).where("owner_id", "=", ownerId).execute();
  return summaryOf({ ...row, visibility });
}

/**
 * Revokes the owner's snapshot: its document and picture are deleted at once and its address
 * answers 410 from then on. Revoking one already revoked is the outcome asked for, not an error.
 */
export async function revokeSnapshot(db: Db, ownerId: number, id: string, now = Date.now()): Promise<SnapshotSummary[]> {
  const updated = await db
    .updateTable("snapshots")
    .set({ revoked_at: now, html: "", png: null })
    .where("id", "=", id)
    .where("owner_id", "=", ownerId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    const row = await db.selectFrom("snapshots").select("id").where("id", "=", id).where("owner_id", "=", ownerId).executeTakeFirst();
    if (!row) throw new ApiError("not_found", "You have no snapshot with that token.");
  }
  return snapshotsOf(db, ownerId, now);
}

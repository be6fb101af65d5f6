import "server-only";
import type { Db } from "@/lib/db";
import { ApiError } from "@/lib/contract/errors";
import { analyseDraft, type DraftReads } from "@/lib/check";
import { ownerByHandle } from "./store";

// Consent to run someone else's dashboard on one's own live data. A person may trust an author
// once and for all ("Always trust <handle>"); the list lives on the server, so it follows them
// from browser to browser, and they can take it back from their space or /connections.
//
// Only the person, at this site's own pages, writes it (POST /account/trust, a human action):
// nothing an app holds — an access token, an MCP call — adds to it. Each entry says how it was
// made; an entry from before that was recorded may have come through a connected app, so
// disconnecting an app takes back the unrecorded ones made while it was connected.

export interface TrustedAuthor {
  handle: string;
  name: string;
  /** ISO 8601: when the trust was given. */
  since: string;
  /** "site": by the person at this site's own pages; "unrecorded": from before that was kept. */
  madeVia: TrustMadeVia;
}

export type TrustMadeVia = "site" | "unrecorded";

/** More authors than anyone would trust by hand; a bound on what one session can write. */
const TRUSTED_AUTHORS_MAX = 200;

export async function trustedAuthors(db: Db, userId: number): Promise<TrustedAuthor[]> {
  const rows = await db
    .selectFrom("trusted_authors")
    .innerJoin("users", "users.id", "trusted_authors.author_id")
    .select(["users.handle", "users.name", "trusted_authors.created_at", "trusted_authors.made_via"])
    .where("trusted_authors.user_id", "=", userId)
    .orderBy("users.handle")
    .execute();
  return rows.map((r) => ({ handle: r.handle, name: r.name, since: new Date(Number(r.created_at)).toISOString(), madeVia: r.made_via === "site" ? "site" : "unrecorded" }));
}

export async function trusts(db: Db, userId: number, authorId: number): Promise<boolean> {
  if (userId === authorId) return true;
  const row = await db.selectFrom("trusted_authors").select("author_id").where("user_id", "=", userId).where("author_id", "=", authorId).executeTakeFirst();
  return row !== undefined;
}

async function authorNamed(db: Db, handle: string): Promise<{ id: number }> {
  const author = await ownerByHandle(db, handle);
  if (!author) throw new ApiError("invalid_request", `handle: nobody has the space /~/${handle.slice(0, 80)}.`);
  return author;
}

/** The person's own act at this site's pages: the one way trust is given (lib/saved/routes.ts). */
export async function addTrust(db: Db, userId: number, handle: string, now = Date.now()): Promise<TrustedAuthor[]> {
  const author = await authorNamed(db, handle);
  if (author.id === userId) throw new ApiError("invalid_request", "handle: your own dashboards always run on your data; there is nothing to trust.");
  await db.transaction().execute(async (tx) => {
    const have = await tx.selectFrom("trusted_authors").select("author_id").where("user_id", "=", userId).execute();
    if (have.some((r) => Number(r.author_id) === author.id)) return;
    if (have.length >= TRUSTED_AUTHORS_MAX) {
      throw new ApiError("invalid_request", `You trust ${TRUSTED_AUTHORS_MAX} authors, the most there can be; stop trusting one first.`);
    }
    await tx.insertInto("trusted_authors").values({ user_id: userId, author_id: author.id, created_at: now, made_via: "site" }).execute();
  });
  return trustedAuthors(db, userId);
}

/** Taking back trust that was never given is not an error: the outcome is the one asked for. */
export async function removeTrust(db: Db, userId: number, handle: string): Promise<TrustedAuthor[]> {
  const author = await ownerByHandle(db, handle);
  if (author) await db.deleteFrom("trusted_authors").where("user_id", "=", userId).where("author_id", "=", author.id).execute();
  return trustedAuthors(db, userId);
}

/**
 * Takes back the trust entries whose origin was not recorded and that were made while the app
 * behind `grantId` was connected (from its grant on): what that app might have made. Called as
 * the person disconnects it; entries the person made at this site's pages stay.
 */
export async function forgetTrustFromApp(db: Db, userId: number, grantId: string): Promise<number> {
  const grant = await db.selectFrom("oauth_grants").select("created_at").where("id", "=", grantId).where("user_id", "=", userId).executeTakeFirst();
  if (!grant) return 0;
  const gone = await db
    .deleteFrom("trusted_authors")
    .where("user_id", "=", userId)
    .where("made_via", "=", "unrecorded")
    .where("created_at", ">=", Number(grant.created_at))
    .executeTakeFirst();
  return Number(gone.numDeletedRows);
}

// A saved revision never changes, so what it reads is worked out once and kept, by the app that
// serves it (lib/root builds one memo per app, so two apps in a process keep theirs apart).
// Bounded: each entry is a short list of paths and names, and a miss costs one run of the check.
const READS_MEMO_MAX = 500;

/** The manifest of a saved revision's reads. */
export type SavedReads = (ownerId: number, slug: string, revision: number, html: string) => DraftReads;
/** The `DASHBOARD_PARAMS` names a saved revision reads: the page's parameter bar offers them. */
export type SavedParamReads = (ownerId: number, slug: string, revision: number, html: string) => string[];

interface SavedAnalysis {
  reads: DraftReads;
  params: string[];
}

/** One memo for both: a revision's reads and its parameters come from the same run of the check. */
export function newSavedAnalysis(): { reads: SavedReads; params: SavedParamReads } {
  const memo = new Map<string, SavedAnalysis>();
  const analysis = (ownerId: number, slug: string, revision: number, html: string): SavedAnalysis => {
    const key = `${ownerId}/${slug}/${revision}`;
    const hit = memo.get(key);
    if (hit) {
      memo.delete(key);
      memo.set(key, hit);
      return hit;
    }
    let found: SavedAnalysis;
    try {
      const { reads, params } = analyseDraft(html);
      found = { reads, params };
    } catch {
      found = { reads: { paths: [], complete: false }, params: [] };
    }
    memo.set(key, found);
    if (memo.size > READS_MEMO_MAX) memo.delete(memo.keys().next().value as string);
    return found;
  };
  return {
    reads: (ownerId, slug, revision, html) => analysis(ownerId, slug, revision, html).reads,
    // A document that never names the global reads none: no run of the check for it.
    params: (ownerId, slug, revision, html) => (html.includes("DASHBOARD_PARAMS") ? analysis(ownerId, slug, revision, html).params : []),
  };
}

export function newSavedReads(): SavedReads {
  return newSavedAnalysis().reads;
}

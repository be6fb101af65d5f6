import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { favouritesOf } from "@/lib/auth/users";
import { ApiError } from "@/lib/contract/errors";

// A person's favourites (render order by `position`) and home path, as changed from their pages.

const FAVOURITES_MAX = 100;

type Favourites = Awaited<ReturnType<typeof favouritesOf>>;

/** Stars a page; starring one already there only updates its label. */
export async function addFavourite(db: Db, userId: number, href: string, label: string): Promise<Favourites> {
  await db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom("favourites").select("href").where("user_id", "=", userId).where("href", "=", href).executeTakeFirst();
    if (existing) {
      await tx.updateTable("favourites").set({ label }).where("user_id", "=", userId).where("href", "=", href).execute();
      return;
    }
    const { count, last } = await tx
      .selectFrom("favourites")
      .select([sql<number>`count(*)`.as("count"), sql<number | null>`max(position)`.as("last")])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= FAVOURITES_MAX) {
      throw new ApiError("invalid_request", `You have ${FAVOURITES_MAX} favourites, the most there can be; unstar one first.`);
    }
    await tx.insertInto("favourites").values({ user_id: userId, href, label, position: last === null ? 0 : Number(last) + 1 }).execute();
  });
  return favouritesOf(db, userId);
}

export async function removeFavourite(db: Db, userId: number, href: string): Promise<Favourites> {
  await db.deleteFrom("favourites").where("user_id", "=", userId).where("href", "=", href).execute();
  return favouritesOf(db, userId);
}

/** Puts the favourites in the order given, which must name each current favourite exactly once. */
export async function moveFavourites(db: Db, userId: number, hrefs: string[]): Promise<Favourites> {
  await db.transaction().execute(async (tx) => {
    const current = (await tx.selectFrom("favourites").select("href").where("user_id", "=", userId).execute()).map((r) => r.href);
    const given = new Set(hrefs);
    if (given.size !== hrefs.length || given.size !== current.length || current.some((h) => !given.has(h))) {
      throw new ApiError("invalid_request", "hrefs: list every current favourite exactly once, in the new order.");
    }
    for (const [position, href] of hrefs.entries()) {
      await tx.updateTable("favourites").set({ position }).where("user_id", "=", userId).where("href", "=", href).execute();
    }
  });
  return favouritesOf(db, userId);
}

export async function setHome(db: Db, userId: number, path: string | null): Promise<string | null> {
  await db.updateTable("users").set({ home_path: path }).where("id", "=", userId).execute();
  return path;
}

import "server-only";
import type { Db } from "@/lib/db";
import { neutralised, unsafeCharacter } from "@/lib/contract/display-text";
import { handleFromEmail } from "./permissions";

/**
 * Creates the user or brings an existing one up to date; groups are replaced by those given.
 * Used by demo seeding and by OIDC sign-in, where the provider's claims are the truth. People
 * read the name and the handle (the email's local part) beside what others made, so neither may
 * carry a character that shows something other than it is: the name loses them, and an email
 * with one is refused, since without it it could be someone else's.
 */
export async function upsertUser(
  db: Db,
  input: { email: string; name: string; groups: readonly string[] },
  now = Date.now(),
): Promise<number> {
  const email = input.email.trim().toLowerCase();
  const unsafe = unsafeCharacter(email);
  if (unsafe) throw new Error(`the email address contains ${unsafe}`);
  const name = neutralised(input.name).trim() || email;
  return db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    let id: number;
    if (existing) {
      id = existing.id;
      await tx.updateTable("users").set({ name }).where("id", "=", id).execute();
    } else {
      const inserted = await tx
        .insertInto("users")
        .values({ email, handle: await freeHandle(tx, handleFromEmail(email)), name, home_path: null, created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      id = Number(inserted.id);
    }
    await tx.deleteFrom("user_groups").where("user_id", "=", id).execute();
    const groups = [...new Set(input.groups)];
    if (groups.length > 0) {
      await tx.insertInto("user_groups").values(groups.map((g) => ({ user_id: id, group_name: g }))).execute();
    }
    return id;
  });
}

/** The handle, or the first of handle-2, handle-3, … not yet taken (same local part, another domain). */
async function freeHandle(db: Db, base: string): Promise<string> {
  const taken = new Set(
    (await db.selectFrom("users").select("handle").where((eb) => eb.or([eb("handle", "=", base), eb("handle", "like", `${base}-%`)])).execute()).map((r) => r.handle),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function userIdByEmail(db: Db, email: string): Promise<number | null> {
  const row = await db.selectFrom("users").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  return row ? row.id : null;
}

export async function favouritesOf(db: Db, userId: number) {
  return db
    .selectFrom("favourites")
    .select(["href", "label"])
    .where("user_id", "=", userId)
    .orderBy("position")
    .orderBy("href")
    .execute();
}

export async function homeOf(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom("users").select("home_path").where("id", "=", userId).executeTakeFirst();
  return row?.home_path ?? null;
}

import "server-only";
import type { Db } from "@/lib/db";
import { readCookie, serializeCookie } from "./cookies";
import { permissionsFor } from "./permissions";
import { randomToken, sha256Hex } from "./tokens";

export const SESSION_COOKIE = "dd_session";

export interface SessionUser {
  id: number;
  email: string;
  handle: string;
  name: string;
  groups: string[];
  permissions: string[];
}

export async function loadUser(db: Db, userId: number): Promise<SessionUser | null> {
  const user = await db.selectFrom("users").select(["id", "email", "handle", "name"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return null;
  return withGroups(db, user);
}

async function withGroups(db: Db, user: Omit<SessionUser, "groups" | "permissions">): Promise<SessionUser> {
  const rows = await db
    .selectFrom("user_groups")
    .select("group_name")
    .where("user_id", "=", user.id)
    .orderBy("group_name")
    .execute();
  const groups = rows.map((r) => r.group_name);
  return { ...user, groups, permissions: permissionsFor(groups) };
}

/** The user behind a session cookie value, or null when it is unknown or expired. One query. */
export async function userForToken(db: Db, token: string | undefined, now = Date.now()): Promise<SessionUser | null> {
  if (!token || token.length > 128) return null;
  const rows = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("user_groups", "user_groups.user_id", "users.id")
    .select(["users.id", "users.email", "users.handle", "users.name", "sessions.expires_at", "user_groups.group_name"])
    .where("sessions.token_hash", "=", sha256Hex(token))
    .orderBy("user_groups.group_name")
    .execute();
  const first = rows[0];
  if (!first || first.expires_at <= now) return null;
  const groups = rows.flatMap((r) => (r.group_name === null ? [] : [r.group_name]));
  return { id: first.id, email: first.email, handle: first.handle, name: first.name, groups, permissions: permissionsFor(groups) };
}

export async function userForRequest(db: Db, request: Request): Promise<SessionUser | null> {
  return userForToken(db, readCookie(request, SESSION_COOKIE));
}

/**
 * Starts a session. Any session the browser already carried is ended first, so a token planted
 * before sign-in never becomes a signed-in one (rotation).
 */
export async function startSession(
  db: Db,
  userId: number,
  ttlMs: number,
  previousToken?: string,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken(32);
  const expiresAt = now + ttlMs;
  await db.transaction().execute(async (tx) => {
    if (previousToken) await tx.deleteFrom("sessions").where("token_hash", "=", sha256Hex(previousToken)).execute();
    await tx.deleteFrom("sessions").where("expires_at", "<=", now).execute();
    await tx
      .insertInto("sessions")
      .values({ token_hash: sha256Hex(token), user_id: userId, created_at: now, expires_at: expiresAt })
      .execute();
  });
  return { token, expiresAt };
}

export async function endSession(db: Db, token: string | undefined): Promise<void> {
  if (token) await db.deleteFrom("sessions").where("token_hash", "=", sha256Hex(token)).execute();
}

export function sessionCookie(token: string, ttlMs: number, secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, token, { maxAgeSeconds: ttlMs / 1000, secure });
}

export function clearedSessionCookie(secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, "", { maxAgeSeconds: 0, secure });
}

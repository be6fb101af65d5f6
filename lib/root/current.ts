import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { SESSION_COOKIE, userForToken, type SessionUser } from "@/lib/auth/session";
import { app } from "./index";

/**
 * The signed-in person and the CSRF token for their session, for pages that let them act
 * (save, star, set home). The token goes into the page and nowhere else. Remembered for the
 * request, so the layout and the page look the session up once between them.
 */
export const currentSession = cache(async (): Promise<{ user: SessionUser; csrf: string } | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const user = await userForToken(await app().db(), token);
  return user && token ? { user, csrf: csrfTokenFor(app().sealer(), token) } : null;
});

/** The signed-in person for a server component, or null. */
export async function currentUser(): Promise<SessionUser | null> {
  return (await currentSession())?.user ?? null;
}

import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { appDb, appSealer } from "@/lib/runtime";
import { csrfTokenFor } from "./csrf";
import { SESSION_COOKIE, userForToken, type SessionUser } from "./session";

/**
 * The signed-in person and the CSRF token for their session, for pages that let them act
 * (save, star, set home). The token goes into the page and nowhere else. Remembered for the
 * request, so the layout and the page look the session up once between them.
 */
export const currentSession = cache(async (): Promise<{ user: SessionUser; csrf: string } | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const user = await userForToken(await appDb(), token);
  return user && token ? { user, csrf: csrfTokenFor(appSealer(), token) } : null;
});

/** The signed-in person for a server component, or null. */
export async function currentUser(): Promise<SessionUser | null> {
  return (await currentSession())?.user ?? null;
}

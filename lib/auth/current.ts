import { cookies } from "next/headers";
import { appDb } from "@/lib/runtime";
import { SESSION_COOKIE, userForToken, type SessionUser } from "./session";

/** The signed-in person for a server component, or null. */
export async function currentUser(): Promise<SessionUser | null> {
  const jar = await cookies();
  return userForToken(await appDb(), jar.get(SESSION_COOKIE)?.value);
}

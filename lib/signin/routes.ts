import "server-only";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { demoUsers } from "@/demo/users";
import { errorResponse, redirectResponse } from "@/lib/http/respond";
import { notCrossSite, safeNextPath } from "@/lib/http/origin";
import { isHttps, readCookie } from "@/lib/auth/cookies";
import { clearedSessionCookie, endSession, SESSION_COOKIE, sessionCookie, startSession } from "@/lib/auth/session";
import { userIdByEmail } from "@/lib/auth/users";

// Sign-in and sign-out as plain Request → Response functions; app/ routes only delegate here.

export interface AuthDeps {
  db: () => Promise<Db>;
  config: Config;
}

function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/** POST /signin/demo — form field `email`; answers 303 to `next`. */
export async function demoSignIn(request: Request, deps: AuthDeps): Promise<Response> {
  if (deps.config.oidc) return errorResponse("not_found", "Demo sign-in is off: this deployment signs in with its identity provider at /signin.");
  if (!notCrossSite(request, deps.config.publicOrigin)) return errorResponse("forbidden", "Sign in from this site's own /signin page.");
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    return errorResponse("unsupported_media_type", "Send the form as application/x-www-form-urlencoded.");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return errorResponse("invalid_form", "The form body could not be read.");
  }
  const email = String(form.get("email") ?? "").trim().toLowerCase();
  const next = safeNextPath(String(form.get("next") ?? "/"));
  const known = demoUsers.some((u) => u.email === email);
  const db = await deps.db();
  const userId = known ? await userIdByEmail(db, email) : null;
  if (userId === null) {
    if (wantsHtml(request)) return redirectResponse(303, `/signin?error=unknown_user&next=${encodeURIComponent(next)}`);
    return errorResponse("unknown_user", `Use one of: ${demoUsers.map((u) => u.email).join(", ")}`);
  }
  const secure = isHttps(request, deps.config.publicOrigin);
  const { token } = await startSession(db, userId, deps.config.sessionTtlMs, readCookie(request, SESSION_COOKIE));
  return redirectResponse(303, next, [sessionCookie(token, deps.config.sessionTtlMs, secure)]);
}

/** POST /signout — ends the session and returns to the landing page. */
export async function signOut(request: Request, deps: AuthDeps): Promise<Response> {
  if (!notCrossSite(request, deps.config.publicOrigin)) return errorResponse("forbidden", "Sign out from this site's own pages.");
  const db = await deps.db();
  await endSession(db, readCookie(request, SESSION_COOKIE));
  return redirectResponse(303, "/", [clearedSessionCookie(isHttps(request, deps.config.publicOrigin))]);
}

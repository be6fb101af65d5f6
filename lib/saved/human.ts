import "server-only";
import type { Db } from "@/lib/db";
import type { Sealer } from "@/lib/crypto/secrets";
import { readCookie } from "@/lib/auth/cookies";
import { SESSION_COOKIE, userForToken, type SessionUser } from "@/lib/auth/session";
import { CSRF_HEADER, csrfTokenFor } from "@/lib/auth/csrf";
import { constantTimeEqual } from "@/lib/auth/tokens";
import { ApiError } from "@/lib/contract/errors";
import { sameOriginBrowserRequest } from "@/lib/http/origin";

// Saving, starring and choosing a home are acts of the signed-in person at one of this site's
// own pages. Three things must all hold, so that nothing else can act for them: the session
// cookie; a browser's word that the request is same-origin (Sec-Fetch-Site and a matching
// Origin — a dashboard's opaque-origin frame, another site or a sibling subdomain fails here);
// and a CSRF token that only our pages hold, bound to the session. A script or tool holding the
// cookie alone (curl) has no Sec-Fetch-Site and no token; a draft's write token is never asked
// for, so it authorises nothing.

export interface HumanDeps {
  db: Db;
  sealer: Sealer;
  publicOrigin?: string;
}

export const FORM_TYPE = "application/x-www-form-urlencoded";
/** A form's token field may not be looked for in a body larger than an action's. */
const FORM_MAX = 16 * 1024;

/** A form sent by one of our pages before (or without) its script: the token rides in a field. */
export function isFormPost(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() === FORM_TYPE;
}

async function sentToken(request: Request): Promise<string> {
  const header = request.headers.get(CSRF_HEADER);
  if (header !== null || !isFormPost(request)) return header ?? "";
  const length = Number(request.headers.get("content-length") ?? Number.NaN);
  if (!(length <= FORM_MAX)) return "";
  // A copy: the route's body reader reads the form itself, under its own rules.
  return new URLSearchParams(await request.clone().text()).get("csrf") ?? "";
}

/** The edge's guard for a human action: the person, or the refusal thrown. */
export async function humanGuard(request: Request, deps: HumanDeps, what: string): Promise<SessionUser> {
  const token = readCookie(request, SESSION_COOKIE);
  const user = token ? await userForToken(deps.db, token) : null;
  if (!token || !user) throw new ApiError("unauthorized", `Sign in, then ${what} from this site's own pages.`);
  if (!sameOriginBrowserRequest(request, deps.publicOrigin)) {
    throw new ApiError("forbidden", `Only the signed-in person can ${what}, from this site's own pages in their browser.`);
  }
  const sent = await sentToken(request);
  if (!constantTimeEqual(sent, csrfTokenFor(deps.sealer, token))) {
    throw new ApiError("forbidden", "The page's CSRF token is missing or out of date; reload the page and try again.");
  }
  return user;
}

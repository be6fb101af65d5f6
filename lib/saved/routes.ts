import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import { defineRoute, oneParam, parseWith, readJsonBody, readTextBody, type RouteModule } from "@/lib/http/edge";
import { safeNextPath } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { checkDraft } from "@/lib/check";
import { FORM_TYPE, humanGuard, isFormPost, type HumanDeps } from "./human";
import { SAVED_HTML_MAX_BYTES, saveDashboard } from "./store";
import { SLUG_PATTERN } from "./slug";
import { addFavourite, moveFavourites, removeFavourite, setHome } from "./account";
import { favouriteAction, homeAction, trustAction } from "./actions";
import { addTrust, removeTrust } from "./trust";

// The state-changing routes of people's spaces: saving a dashboard, and the person's favourites,
// home and trusted authors. Each is a human action (see human.ts), guarded at the edge, and
// answers the error envelope on refusal.

const NOTE_MAX = 200;
const JSON_BODY_MAX = 16 * 1024;

export interface SavedRoutes {
  /** POST /~/<handle>/<slug> (rewritten to /dashboards/save/<handle>/<slug>) with the dashboard as text/html */
  save: RouteModule;
  /** POST /account/favourites */
  favourites: RouteModule;
  /** POST /account/home */
  home: RouteModule;
  /** POST /account/trust */
  trust: RouteModule;
}

/** The pages of /account, where a form sent from a page without script returns to. */
const ACCOUNT_PAGES = { favourites: "/account#favourites", home: "/account#home", trust: "/account#trusted-authors" } as const;

/** An account action, and for a form post (the page before its script runs) where to go after it. */
interface AccountBody<T> {
  action: T;
  /** Null for JSON: the caller reads the answer. */
  returnTo: string | null;
}

export function accountBody<T>(schema: z.ZodType<T>, fromForm: (form: URLSearchParams) => unknown, page: string): (request: Request) => Promise<AccountBody<T>> {
  const rules = {
    max: JSON_BODY_MAX,
    tooLarge: { code: "payload_too_large" as const, hint: `The body may be at most ${JSON_BODY_MAX} bytes.` },
    invalid: "invalid_request" as const,
  };
  return async (request) => {
    if (!isFormPost(request)) return { action: await readJsonBody(request, schema, { ...rules, typeHint: "Send Content-Type: application/json (or a form from the account page)." }), returnTo: null };
    const form = new URLSearchParams(await readTextBody(request, { type: FORM_TYPE, typeHint: "Send a form.", ...rules }));
    const next = form.get("next");
    return { action: parseWith(schema, fromForm(form), "invalid_request"), returnTo: next && safeNextPath(next) === next ? next : page };
  };
}

/** A form post goes back to its page (303, so the reload is a GET); JSON gets its answer. */
export function answer(body: AccountBody<unknown>, value: unknown, status = 200): Response {
  if (body.returnTo !== null) return new Response(null, { status: 303, headers: { location: body.returnTo, "cache-control": "no-store" } });
  return json(value, status);
}

// Built once here: a generic call written inside the route's spec would leave its type unknown there.
const favouriteBody = accountBody(favouriteAction, (f) => ({ op: f.get("op"), href: f.get("href"), label: f.get("label") ?? undefined }), ACCOUNT_PAGES.favourites);
// An empty path in a form is "no home": the start page.
const homeBody = accountBody(homeAction, (f) => ({ path: f.get("path") || null }), ACCOUNT_PAGES.home);
const trustBody = accountBody(trustAction, (f) => ({ op: f.get("op"), handle: f.get("handle") }), ACCOUNT_PAGES.trust);

export function savedRoutes(deps: () => Promise<HumanDeps>): SavedRoutes {
  const human = (what: string) => async (request: Request) => humanGuard(request, await deps(), what);
  return {
    save: defineRoute({
      // Path values arrive decoded once by the router; they are not decoded again.
      params: (raw) => ({ handle: oneParam(raw, "handle"), slug: oneParam(raw, "slug") }),
      refuse: "Save with POST and Content-Type: text/html; open the page with GET.",
      // The page at the same path answers GET.
      allow: "GET, HEAD, POST",
      methods: (on) => ({
        POST: on({
          guard: human("save a dashboard"),
          handle: async ({ request, params: { handle, slug }, who }) => {
            if (handle !== who.handle) throw new ApiError("forbidden", `You can save only into your own space, /~/${who.handle}.`);
            if (!SLUG_PATTERN.test(slug)) {
              throw new ApiError("invalid_slug", "Use 1–64 lowercase letters, digits and hyphens, starting with a letter or digit.");
            }
            const html = await readTextBody(
              request,
              {
                type: "text/html",
                typeHint: "Send the dashboard itself with Content-Type: text/html.",
                max: SAVED_HTML_MAX_BYTES,
                tooLarge: { code: "payload_too_large", hint: `A dashboard may be at most ${SAVED_HTML_MAX_BYTES} bytes (2 MiB).` },
                invalid: "unsupported_media_type",
              },
              true,
            );
            if (html.trim() === "") throw new ApiError("empty_dashboard", "Send the dashboard's HTML as the body.");
            // PostgreSQL cannot hold NUL, and HTML does not allow it: refused on either engine, as drafts are.
            if (html.includes("\u0000")) throw new ApiError("invalid_dashboard", "The dashboard contains NUL (U+0000), which HTML does not allow; remove it and save again.");
            const webrtc = checkDraft(html).find((w) => w.rule === "webrtc");
            if (webrtc) {
              throw new ApiError(
                "dashboard_uses_webrtc",
                `Line ${webrtc.line}, column ${webrtc.column}: ${webrtc.message} Remove it and save again; dashboards read data only through fetch on window.DASHBOARD_API_BASE.`,
              );
            }
            const { db } = await deps();
            const saved = await saveDashboard(db, { ownerId: who.id, handle, slug, html, note: noteFrom(request) });
            return json({ path: saved.path, revision: saved.revision, savedAt: saved.savedAt }, saved.created ? 201 : 200, { location: saved.path });
          },
        }),
      }),
    }),

    // {op: "add", href, label}, {op: "remove", href} or {op: "order", hrefs} (every current
    // favourite, in the new render order). Answers the list.
    favourites: defineRoute({
      refuse: "Change favourites with POST; read them at /api/me/favourites.",
      methods: (on) => ({
        POST: on({
          guard: human("change favourites"),
          body: favouriteBody,
          handle: async ({ who, body }) => {
            const { action } = body;
            const { db } = await deps();
            const favourites =
              action.op === "add"
                ? await addFavourite(db, who.id, action.href, action.label)
                : action.op === "remove"
                  ? await removeFavourite(db, who.id, action.href)
                  : await moveFavourites(db, who.id, action.hrefs);
            return answer(body, { favourites });
          },
        }),
      }),
    }),

    // {path} sets where `/` goes; {path: null} clears it. Answers {path}.
    home: defineRoute({
      refuse: "Set home with POST; read it at /api/me/home.",
      methods: (on) => ({
        POST: on({
          guard: human("set a home page"),
          body: homeBody,
          handle: async ({ who, body }) => answer(body, { path: await setHome((await deps()).db, who.id, body.action.path) }),
        }),
      }),
    }),

    // {op: "add", handle} lets that author's dashboards run on the person's live data without
    // asking; {op: "remove", handle} takes it back. Answers the list.
    trust: defineRoute({
      refuse: "Change whom you trust with POST; /connections lists them.",
      methods: (on) => ({
        POST: on({
          guard: human("change whom you trust"),
          body: trustBody,
          handle: async ({ who, body }) => {
            const { op, handle } = body.action;
            const { db } = await deps();
            return answer(body, { authors: op === "add" ? await addTrust(db, who.id, handle) : await removeTrust(db, who.id, handle) });
          },
        }),
      }),
    }),
  };
}

/** What the history shows beside a revision: the page says where it came from (a restore, a draft). */
function noteFrom(request: Request): string | null {
  const raw = request.headers.get("x-save-note");
  if (!raw) return null;
  const text = raw.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, NOTE_MAX);
  return text || null;
}

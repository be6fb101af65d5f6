import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import { contentType, readBodyCapped, utf8Charset } from "@/lib/http/body";
import { errorResponse, fromThrown, json } from "@/lib/http/respond";
import { checkDraft } from "@/lib/check";
import type { Db } from "@/lib/db";
import { humanRequest, type HumanDeps } from "./human";
import { SAVED_HTML_MAX_BYTES, saveDashboard } from "./store";
import { SLUG_PATTERN } from "./slug";
import { addFavourite, moveFavourites, removeFavourite, setHome } from "./account";
import { favouriteAction, homeAction, trustAction } from "./actions";
import { addTrust, removeTrust } from "./trust";

// The state-changing routes of people's spaces: saving a dashboard, and the person's favourites
// and home. Each is a human action (see human.ts) and answers the error envelope on refusal.

const NOTE_MAX = 200;

/** POST /~/<handle>/<slug> with the dashboard as text/html. */
export async function saveRoute(request: Request, handle: string, slug: string, deps: HumanDeps): Promise<Response> {
  try {
    if (request.method !== "POST") {
      return errorResponse("method_not_allowed", "Save with POST and Content-Type: text/html; open the page with GET.", { allow: "GET, POST" });
    }
    const who = await humanRequest(request, deps, "save a dashboard");
    if (!who.ok) return who.response;
    if (handle !== who.user.handle) {
      return errorResponse("forbidden", `You can save only into your own space, /~/${who.user.handle}.`);
    }
    if (!SLUG_PATTERN.test(slug)) {
      throw new ApiError("invalid_slug", "Use 1–64 lowercase letters, digits and hyphens, starting with a letter or digit.");
    }
    const { essence, charset } = contentType(request);
    if (essence !== "text/html") throw new ApiError("unsupported_media_type", "Send the dashboard itself with Content-Type: text/html.");
    if (!utf8Charset(charset)) throw new ApiError("unsupported_media_type", "The body must be UTF-8.");
    const body = await readBodyCapped(request, SAVED_HTML_MAX_BYTES);
    if (!body) throw new ApiError("payload_too_large", `A dashboard may be at most ${SAVED_HTML_MAX_BYTES} bytes (2 MiB).`);
    let html: string;
    try {
      html = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
    } catch {
      throw new ApiError("unsupported_media_type", "The body is not valid UTF-8.");
    }
    if (html.trim() === "") throw new ApiError("empty_dashboard", "Send the dashboard's HTML as the body.");
    const webrtc = checkDraft(html).find((w) => w.rule === "webrtc");
    if (webrtc) {
      throw new ApiError(
        "dashboard_uses_webrtc",
        `Line ${webrtc.line}, column ${webrtc.column}: ${webrtc.message} Remove it and save again; dashboards read data only through fetch on window.DASHBOARD_API_BASE.`,
      );
    }
    const saved = await saveDashboard(deps.db, { ownerId: who.user.id, handle, slug, html, note: noteFrom(request) });
    return json({ path: saved.path, revision: saved.revision, savedAt: saved.savedAt }, saved.created ? 201 : 200, { location: saved.path });
  } catch (err) {
    return fromThrown(err);
  }
}

/** What the history shows beside a revision: the page says where it came from (a restore, a draft). */
function noteFrom(request: Request): string | null {
  const raw = request.headers.get("x-save-note");
  if (!raw) return null;
  const text = raw.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, NOTE_MAX);
  return text || null;
}

const JSON_BODY_MAX = 16 * 1024;

async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  if (contentType(request).essence !== "application/json") {
    throw new ApiError("unsupported_media_type", "Send Content-Type: application/json.");
  }
  const body = await readBodyCapped(request, JSON_BODY_MAX);
  if (!body) throw new ApiError("payload_too_large", `The body may be at most ${JSON_BODY_MAX} bytes.`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new ApiError("invalid_request", "The body is not JSON.");
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "";
  throw new ApiError("invalid_request", `${where}${issue?.message ?? "not understood"}`.slice(0, 300));
}

/**
 * POST /account/favourites: `{op: "add", href, label}`, `{op: "remove", href}` or
 * `{op: "order", hrefs}` (every current favourite, in the new render order). Answers the list.
 */
export async function favouritesRoute(request: Request, deps: HumanDeps): Promise<Response> {
  try {
    if (request.method !== "POST") return errorResponse("method_not_allowed", "Change favourites with POST; read them at /api/me/favourites.", { allow: "POST" });
    const who = await humanRequest(request, deps, "change favourites");
    if (!who.ok) return who.response;
    const action = await readJson(request, favouriteAction);
    const db: Db = deps.db;
    const favourites =
      action.op === "add"
        ? await addFavourite(db, who.user.id, action.href, action.label)
        : action.op === "remove"
          ? await removeFavourite(db, who.user.id, action.href)
          : await moveFavourites(db, who.user.id, action.hrefs);
    return json({ favourites });
  } catch (err) {
    return fromThrown(err);
  }
}

/** POST /account/home: `{path}` sets where `/` goes; `{path: null}` clears it. Answers `{path}`. */
export async function homeRoute(request: Request, deps: HumanDeps): Promise<Response> {
  try {
    if (request.method !== "POST") return errorResponse("method_not_allowed", "Set home with POST; read it at /api/me/home.", { allow: "POST" });
    const who = await humanRequest(request, deps, "set a home page");
    if (!who.ok) return who.response;
    const { path } = await readJson(request, homeAction);
    return json({ path: await setHome(deps.db, who.user.id, path) });
  } catch (err) {
    return fromThrown(err);
  }
}

/**
 * POST /account/trust: `{op: "add", handle}` lets that author's dashboards run on the person's
 * live data without asking; `{op: "remove", handle}` takes it back. Answers the list.
 */
export async function trustRoute(request: Request, deps: HumanDeps): Promise<Response> {
  try {
    if (request.method !== "POST") return errorResponse("method_not_allowed", "Change whom you trust with POST; /connections lists them.", { allow: "POST" });
    const who = await humanRequest(request, deps, "change whom you trust");
    if (!who.ok) return who.response;
    const { op, handle } = await readJson(request, trustAction);
    const authors = op === "add" ? await addTrust(deps.db, who.user.id, handle) : await removeTrust(deps.db, who.user.id, handle);
    return json({ authors });
  } catch (err) {
    return fromThrown(err);
  }
}

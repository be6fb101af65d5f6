// GET /dashboards/playground/draft/<read_id>/drawn?viewport=desktop|phone&revision= — the safe
// view of a live draft: drawn by the service on the signed-in viewer's own data, as an inert
// document (lib/playground/drawn.ts). Answers {html, drawnAt, height, revision, viewport, remembered}.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.drawings.draft;

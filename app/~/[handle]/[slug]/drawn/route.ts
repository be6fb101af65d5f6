// GET /~/<handle>/<slug>/drawn?viewport=desktop|phone&revision= — the safe view: someone else's
// saved dashboard drawn by the service on the signed-in viewer's own data, as an inert document
// (lib/saved/drawings.ts). Answers {html, drawnAt, height, revision, viewport, remembered}; the
// page shows html in a frame that may run no script.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.drawings.drawn;

// GET /dashboards/drawn/<token>/api/<path> — one read of a dashboard the service is drawing on a
// viewer's data (lib/saved/drawings.ts): answered as that viewer, on the paths its code names,
// while the drawing lasts. The token names the drawing and authorises nothing else.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.drawings.reads;

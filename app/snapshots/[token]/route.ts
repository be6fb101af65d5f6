// GET /snapshots/<token> — a snapshot: a page for browsers, JSON otherwise; 410 once revoked or
// expired, 404 to whoever may not open it (lib/saved/snapshot-routes.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.snapshots.show;

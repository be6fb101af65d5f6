// GET /snapshots/<token>/picture.png — a snapshot's picture, to whoever may open the snapshot;
// 410 once revoked or expired, 404 to anyone else (lib/saved/snapshot-routes.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.snapshots.picture;

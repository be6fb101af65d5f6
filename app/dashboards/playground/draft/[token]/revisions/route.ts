// GET /dashboards/playground/draft/<read_id>/revisions — the draft's kept revisions, newest first
import { appPlaygroundRoutes } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = appPlaygroundRoutes.revisions;

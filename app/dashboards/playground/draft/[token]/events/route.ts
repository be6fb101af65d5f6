// GET /dashboards/playground/draft/<read_id>/events — the draft's live event stream
import { appPlaygroundRoutes } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = appPlaygroundRoutes.events;

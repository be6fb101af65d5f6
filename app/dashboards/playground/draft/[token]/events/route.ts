// GET /dashboards/playground/draft/<read_id>/events — the draft's live event stream
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.events;

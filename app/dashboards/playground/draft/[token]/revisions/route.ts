// GET /dashboards/playground/draft/<read_id>/revisions — the draft's kept revisions, newest first
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.revisions;

// POST /dashboards/playground/draft/<read_id>/render — the service draws a demo draft's revision
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.render;

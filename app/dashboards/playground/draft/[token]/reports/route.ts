// POST/GET /dashboards/playground/draft/<read_id>/reports — render reports of a demo draft
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.reports;

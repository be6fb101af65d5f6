// POST /dashboards/playground/draft/<write_token> — update a draft
// GET  /dashboards/playground/draft/<read_id> — the current draft as JSON
// The two never share a value: a read id does not authorise a write, a write token does not read.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.draft;

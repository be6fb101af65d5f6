// GET /dashboards/playground/api/<api path> — the demo API: canned answers per scenario and variant,
// limited per client address.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.demoApi;

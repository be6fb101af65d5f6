// GET /dashboards/playground/scenarios — the demo scenarios, the default, and every path's variants.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.scenarios;

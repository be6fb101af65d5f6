// GET /dashboards/playground/api/<api path> — the demo API: canned answers per scenario and variant,
// limited per client address.
import { appPlaygroundRoutes } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = appPlaygroundRoutes.demoApi;

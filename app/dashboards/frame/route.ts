// GET /dashboards/frame — the sandboxed frame's bootstrap document; the host page sends it the dashboard.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.frame;

// /api/* — the read-only JSON API. Routing, auth, parsing and errors live in lib/api/api-route and the edge.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.api;

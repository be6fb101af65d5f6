// /api/* — the read-only JSON API. Routing, auth, parsing and errors live in lib/handlers/api-route and the edge.
import { app } from "@/lib/app";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.api;

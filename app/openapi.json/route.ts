// GET /openapi.json — the API, the playground and saving as an OpenAPI 3.1 document (lib/reference).
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.reference.openapi;

// GET /dashboards/playground/endpoints — every API endpoint's JSON Schemas, errors and the error envelope.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.endpoints;

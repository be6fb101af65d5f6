// GET /openapi.json — the API, the playground and saving as an OpenAPI 3.1 document (lib/docs).
import { config } from "@/lib/config";
import { requestOrigin } from "@/lib/http/origin";
import { json, readOnly } from "@/lib/http/respond";
import { openApiDocument } from "@/lib/docs/openapi";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return json(openApiDocument(requestOrigin(request, config().publicOrigin)), 200, { "cache-control": "public, max-age=300" });
}

const notAllowed = () => readOnly();
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

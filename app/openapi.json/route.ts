// GET /openapi.json — the API, the playground and saving as an OpenAPI 3.1 document (lib/docs).
import { config } from "@/lib/config";
import { trustedOrigin } from "@/lib/http/origin";
import { fromThrown, json, readOnly } from "@/lib/http/respond";
import { openApiDocument } from "@/lib/docs/openapi";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  try {
    // The document names this server, and a shared cache may keep it: only a believed origin.
    return json(openApiDocument(trustedOrigin(request, config().publicOrigin)), 200, { "cache-control": "public, max-age=300" });
  } catch (err) {
    return fromThrown(err);
  }
}

const notAllowed = () => readOnly();
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

// GET /openapi.json — the API, the playground and saving as an OpenAPI 3.1 document (lib/reference).
import { app } from "@/lib/root";
import { defineRoute } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { openApiDocument } from "@/lib/reference/openapi";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    // The document names this server, and a shared cache may keep it: only a believed origin.
    GET: on({ handle: ({ request }) => json(openApiDocument(trustedOrigin(request, app().config.publicOrigin, app().config.allowedHosts)), 200, { "cache-control": "public, max-age=300" }) }),
  }),
});

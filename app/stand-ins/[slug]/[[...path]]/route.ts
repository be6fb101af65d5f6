// /stand-ins/<slug>/* — local stand-ins of the vendor APIs (embedded default only)
import { serveStandIn } from "@/lib/connectors/stand-ins";
import { defineRoute, oneParam } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  // The stand-ins match decoded paths, as the vendors' routers do.
  params: (raw) => ({ slug: oneParam(raw, "slug"), path: `/${[raw.path ?? []].flat().join("/")}` }),
  refuse: "The stand-ins take GET and POST, as the vendors' APIs do.",
  methods: (on) => {
    const handle = on({ handle: ({ request, params }) => serveStandIn(request, params.slug, params.path) });
    return { GET: handle, POST: handle };
  },
});

// GET /dashboards/frame — the sandboxed frame's bootstrap document; the host page sends it the dashboard.
import { FRAME_HEADERS, bootstrapHtml } from "@/lib/frame/bootstrap";
import { defineRoute } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({ GET: on({ handle: () => new Response(bootstrapHtml(), { status: 200, headers: FRAME_HEADERS }) }) }),
});

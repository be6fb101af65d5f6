// GET /dashboards/playground/llms-full.txt — the whole agent protocol, every shape and example;
// llms.txt is its index.
import { app } from "@/lib/root";
import { defineRoute } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import { llmsFullText } from "@/lib/reference/llms";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    GET: on({
      // The protocol names this server's URLs, and a cache may keep it: only a believed origin.
      handle: ({ request }) =>
        new Response(llmsFullText(trustedOrigin(request, app().config.publicOrigin, app().config.allowedHosts)), {
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=300", "referrer-policy": "no-referrer" },
        }),
    }),
  }),
});

// GET /dashboards/playground/llms.txt — the agent protocol's index, generated from the registry
import { app } from "@/lib/root";
import { defineRoute } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import { llmsText } from "@/lib/reference/llms";
import { playgroundSettingsOf } from "@/lib/playground/settings";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    GET: on({
      // The protocol names this server's URLs, and a cache may keep it: only a believed origin.
      handle: ({ request }) =>
        // The limits it names are this deployment's own.
        new Response(llmsText(trustedOrigin(request, app().config.publicOrigin, app().config.allowedHosts), playgroundSettingsOf(app().config)), {
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=300", "referrer-policy": "no-referrer" },
        }),
    }),
  }),
});

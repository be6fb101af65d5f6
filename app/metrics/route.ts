// GET /metrics — Prometheus metrics of this instance, for loopback callers or the bearer of
// METRICS_TOKEN (lib/ops/access.ts); 404 to anyone else, or 401 when a token is configured.
import { app } from "@/lib/root";
import { defineRoute } from "@/lib/http/edge";
import { allowOperator } from "@/lib/ops/access";
import { addressMatcher } from "@/lib/http/client-address";

export const dynamic = "force-dynamic";

let trusted: ReturnType<typeof addressMatcher> | undefined;

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    GET: on({
      handle: async ({ request }) => {
        const { config, metrics } = app();
        trusted ??= addressMatcher(config.playground.trustedProxy);
        allowOperator(request, trusted, config.metricsToken);
        return new Response(await metrics.registry.metrics(), {
          headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store", "x-content-type-options": "nosniff" },
        });
      },
    }),
  }),
});

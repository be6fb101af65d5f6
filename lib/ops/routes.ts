import "server-only";
import type { Config } from "@/lib/config";
import { ApiError } from "@/lib/contract/errors";
import { addressMatcher } from "@/lib/http/client-address";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { errorResponse, json } from "@/lib/http/respond";
import { serverLog } from "@/lib/http/server-log";
import { allowOperator } from "./access";
import type { Metrics } from "./metrics";
import type { Readiness } from "./readiness";

// The operator's routes: liveness, readiness, metrics, and the two that only tests and benchmarks
// turn on.

export interface OpsRoutes {
  /** GET /healthz: the process is alive and serving requests; nothing else is checked (see readyz). */
  healthz: RouteModule;
  /**
   * GET /readyz: whether this instance should get traffic: storage answers, migrations are
   * applied, and on PostgreSQL the draft-update listener is connected. 503 names what is not.
   */
  readyz: RouteModule;
  /**
   * GET /metrics: Prometheus metrics of this instance, for loopback callers or the bearer of
   * METRICS_TOKEN (access.ts); 404 to anyone else, or 401 when a token is configured.
   */
  metrics: RouteModule;
  /**
   * GET /test-fault: a handler that fails on purpose, so the integration tests can find an
   * unexpected failure's stack in the server's log under its request id. Not found unless
   * TEST_FAULTS=1 (tests only).
   */
  testFault: RouteModule;
  /**
   * GET /bench-baseline: a constant JSON, the benchmarks' yardstick (off unless BENCH_BASELINE=1).
   * `?bytes=N` pads it to about N bytes, so large answers can also be compared with a baseline of
   * the same size: that separates what the framework spends on a big body from what our code does.
   * It goes through the edge like every route, so the yardstick carries the edge's own cost.
   */
  benchBaseline: RouteModule;
}

interface OpsDeps {
  config: Config;
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
}

export function opsRoutes({ config, metrics, readiness }: OpsDeps): OpsRoutes {
  let trusted: ReturnType<typeof addressMatcher> | undefined;
  const padded = new Map<number, { email: string; groups: string[]; pad: string }>();
  return {
    healthz: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({ GET: on({ handle: () => json({ ok: true }, 200, { "cache-control": "no-store" }) }) }),
    }),
    readyz: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({
        GET: on({
          handle: async () => {
            const r = await readiness();
            if (r.ready) return json({ ok: true }, 200, { "cache-control": "no-store" });
            return errorResponse("not_ready", r.hint, { "cache-control": "no-store", "retry-after": "5" });
          },
        }),
      }),
    }),
    metrics: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({
        GET: on({
          handle: async ({ request }) => {
            trusted ??= addressMatcher(config.playground.trustedProxy);
            allowOperator(request, trusted, config.metricsToken);
            return new Response(await metrics.registry.metrics(), {
              headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store", "x-content-type-options": "nosniff" },
            });
          },
        }),
      }),
    }),
    testFault: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({
        GET: on({
          handle: async () => {
            if (!config.testFaults) throw new ApiError("not_found");
            // After a turn of the event loop, as real work would be: the line must still find its request.
            await new Promise((resolve) => setTimeout(resolve, 5));
            serverLog("warn", "about to fail on purpose", { component: "test-fault" });
            throw new Error("test fault: thrown on purpose");
          },
        }),
      }),
    }),
    benchBaseline: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({
        GET: on({
          handle: ({ url }) => {
            if (!config.benchBaseline) throw new ApiError("not_found");
            const bytes = Math.min(Number(url.searchParams.get("bytes")) || 0, 5_000_000);
            if (bytes <= 0) return json({ email: "baseline@bench.test", groups: ["bench"] });
            if (!padded.has(bytes)) padded.set(bytes, { email: "baseline@bench.test", groups: ["bench"], pad: "x".repeat(bytes) });
            return json(padded.get(bytes));
          },
        }),
      }),
    }),
  };
}

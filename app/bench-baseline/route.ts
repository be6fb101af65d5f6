// GET /bench-baseline — a constant JSON, the benchmarks' yardstick (off unless BENCH_BASELINE=1).
// `?bytes=N` pads it to about N bytes, so large answers can also be compared with a baseline of
// the same size: that separates what the framework spends on a big body from what our code does.
// It goes through the edge like every route, so the yardstick carries the edge's own cost.
import { app } from "@/lib/root";
import { ApiError } from "@/lib/contract/errors";
import { defineRoute } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

const padded = new Map<number, { email: string; groups: string[]; pad: string }>();

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    GET: on({
      handle: ({ url }) => {
        if (!app().config.benchBaseline) throw new ApiError("not_found");
        const bytes = Math.min(Number(url.searchParams.get("bytes")) || 0, 5_000_000);
        if (bytes <= 0) return json({ email: "baseline@bench.test", groups: ["bench"] });
        if (!padded.has(bytes)) padded.set(bytes, { email: "baseline@bench.test", groups: ["bench"], pad: "x".repeat(bytes) });
        return json(padded.get(bytes));
      },
    }),
  }),
});

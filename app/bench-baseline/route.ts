// GET /bench-baseline — the benchmarks' yardstick; off unless BENCH_BASELINE=1 (lib/ops/routes.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.ops.benchBaseline;

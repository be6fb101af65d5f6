// GET /bench-baseline — a constant small JSON, the benchmarks' yardstick (off unless BENCH_BASELINE=1)
import { config } from "@/lib/config";
import { errorResponse, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export function GET(): Response {
  if (!config().benchBaseline) return errorResponse("not_found");
  return json({ email: "baseline@bench.test", groups: ["bench"] });
}

// GET /metrics — Prometheus metrics of this instance, for operators (lib/ops/routes.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.ops.metrics;

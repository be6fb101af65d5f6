// GET /readyz — whether this instance should get traffic (lib/ops/routes.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.ops.readyz;

// GET /test-fault — fails on purpose, for the tests; off unless TEST_FAULTS=1 (lib/ops/routes.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.ops.testFault;

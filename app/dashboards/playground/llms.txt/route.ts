// GET /dashboards/playground/llms.txt — the agent protocol's index, generated from the registry
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.reference.llms;

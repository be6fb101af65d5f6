// GET /dashboards/playground/llms-full.txt — the whole agent protocol, every shape and example;
// llms.txt is its index.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.reference.llmsFull;

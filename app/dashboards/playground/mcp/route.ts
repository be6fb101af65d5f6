// POST /dashboards/playground/mcp — the playground's agent loop as Model Context Protocol tools
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.agent.mcp;

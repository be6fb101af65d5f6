// GET /.well-known/oauth-protected-resource[/dashboards/playground/mcp] — the MCP endpoint's protected-resource metadata (RFC 9728)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.protectedResource;

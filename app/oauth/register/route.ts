// POST /oauth/register — dynamic client registration for MCP clients (RFC 7591)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.register;

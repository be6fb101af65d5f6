// POST /oauth/revoke — an MCP client gives up its tokens (RFC 7009)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.revoke;

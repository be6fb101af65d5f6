// GET /.well-known/oauth-authorization-server — the authorization server's metadata (RFC 8414)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.authorizationServer;

// POST /oauth/token — authorization codes and refresh tokens for access tokens
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.token;

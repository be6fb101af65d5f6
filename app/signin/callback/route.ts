// GET /signin/callback — the identity provider's answer to /signin/oidc
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.signin.callback;

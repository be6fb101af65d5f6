// GET /signin/oidc — starts sign-in with the identity provider (only when one is configured)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.signin.oidc;

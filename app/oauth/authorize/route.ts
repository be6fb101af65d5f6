// GET /oauth/authorize — the consent page; POST — the signed-in person's answer
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.authorize;

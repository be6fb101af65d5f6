// GET /signin/callback — the identity provider's answer to /signin/oidc
import { config } from "@/lib/config";
import { oidcCallback } from "@/lib/signin/oidc";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return oidcCallback(request, { db: appDb, config: config() });
}

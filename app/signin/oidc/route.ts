// GET /signin/oidc — starts sign-in with the identity provider (only when one is configured)
import { config } from "@/lib/config";
import { oidcStart } from "@/lib/signin/oidc";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return oidcStart(request, { db: appDb, config: config() });
}

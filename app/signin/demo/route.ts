// POST /signin/demo — demo sign-in (only when no identity provider is configured)
import { config } from "@/lib/config";
import { demoSignIn } from "@/lib/signin/routes";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return demoSignIn(request, { db: appDb, config: config() });
}

// POST /signout — ends the session
import { config } from "@/lib/config";
import { signOut } from "@/lib/signin/routes";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return signOut(request, { db: appDb, config: config() });
}

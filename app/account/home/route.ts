// POST /account/home — set or clear where "/" goes (a human action from our own pages)
import { appHumanDeps } from "@/lib/saved/deps";
import { homeRoute } from "@/lib/saved/routes";

export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return homeRoute(request, await appHumanDeps());
}

export { handle as GET, handle as POST, handle as PUT, handle as DELETE };

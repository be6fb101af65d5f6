// POST /account/trust — always run an author's dashboards on one's data, or stop (a human action from our own pages)
import { appHumanDeps } from "@/lib/saved/deps";
import { trustRoute } from "@/lib/saved/routes";

export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return trustRoute(request, await appHumanDeps());
}

export { handle as GET, handle as POST, handle as PUT, handle as DELETE };

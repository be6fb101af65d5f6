// POST /account/favourites — star, unstar and reorder (a human action from our own pages)
import { appHumanDeps } from "@/lib/saved/deps";
import { favouritesRoute } from "@/lib/saved/routes";

export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return favouritesRoute(request, await appHumanDeps());
}

export { handle as GET, handle as POST, handle as PUT, handle as DELETE };

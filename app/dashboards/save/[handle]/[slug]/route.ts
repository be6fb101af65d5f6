// POST /~/<handle>/<slug> arrives here, rewritten by proxy.ts (the page at that path answers
// GET); proxy.ts refuses this path when it is asked for directly.
import { appHumanDeps } from "@/lib/saved/deps";
import { saveRoute } from "@/lib/saved/routes";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ handle: string; slug: string }> };

async function handle(request: Request, ctx: Ctx): Promise<Response> {
  const { handle: owner, slug } = await ctx.params;
  return saveRoute(request, decodeURIComponent(owner), decodeURIComponent(slug), await appHumanDeps());
}

export { handle as POST, handle as PUT, handle as PATCH, handle as DELETE };

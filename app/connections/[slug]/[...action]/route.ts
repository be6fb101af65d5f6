// /connections/<slug>/{connect,callback,disconnect,opt-in,donor/connect,donor/disconnect}
import { connectionAction } from "@/lib/connectors/routes";

export const dynamic = "force-dynamic";

async function handle(request: Request, ctx: { params: Promise<{ slug: string; action: string[] }> }): Promise<Response> {
  const { slug, action } = await ctx.params;
  return connectionAction(request, slug, action.join("/"));
}

export { handle as GET, handle as POST };

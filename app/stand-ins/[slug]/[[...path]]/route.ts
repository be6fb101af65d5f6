// /stand-ins/<slug>/* — local stand-ins of the vendor APIs (embedded default only)
import { serveStandIn } from "@/lib/connectors/stand-ins";

export const dynamic = "force-dynamic";

async function handle(request: Request, ctx: { params: Promise<{ slug: string; path?: string[] }> }): Promise<Response> {
  const { slug, path = [] } = await ctx.params;
  return serveStandIn(request, slug, `/${path.join("/")}`);
}

export { handle as GET, handle as POST };

// GET /dashboards/playground/draft/<read_id>/revisions — the draft's kept revisions, newest first
import { methodNotAllowed } from "@/lib/http/respond";
import { withAppPlayground } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  return withAppPlayground((playground) => playground.revisions(request, token));
}

const refuse = methodNotAllowed("GET, HEAD", "Revisions are read with GET.");
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };

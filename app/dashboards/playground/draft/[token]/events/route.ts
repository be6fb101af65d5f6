// GET /dashboards/playground/draft/<read_id>/events — the draft's live event stream
import { methodNotAllowed } from "@/lib/http/respond";
import { withAppPlayground } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  return withAppPlayground((playground) => playground.events(request, token));
}

const refuse = methodNotAllowed("GET, HEAD", "The event stream is read with GET.");
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };

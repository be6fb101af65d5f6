// GET /dashboards/playground/draft/<read_id>/revisions — the draft's kept revisions, newest first
import { withAppPlayground } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  return withAppPlayground((playground) => playground.revisions(request, token));
}

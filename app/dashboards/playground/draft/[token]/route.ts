// POST /dashboards/playground/draft/<write_token> — update a draft
// GET  /dashboards/playground/draft/<read_id> — the current draft as JSON
// The two never share a value: a read id does not authorise a write, a write token does not read.
import { methodNotAllowed } from "@/lib/http/respond";
import { withAppPlayground } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

interface Ctx {
  params: Promise<{ token: string }>;
}

export async function POST(request: Request, ctx: Ctx): Promise<Response> {
  const { token } = await ctx.params;
  return withAppPlayground((playground) => playground.update(request, token));
}

export async function GET(request: Request, ctx: Ctx): Promise<Response> {
  const { token } = await ctx.params;
  return withAppPlayground((playground) => playground.read(request, token));
}

const refuse = methodNotAllowed("GET, HEAD, POST", "GET <read_id> reads a draft; POST <write_token> updates it. Nothing else is taken here.");
export { refuse as PUT, refuse as PATCH, refuse as DELETE };

// GET /dashboards/playground/api/<api path> — the demo API: canned answers per scenario and variant.
import { fromThrown, json, readOnly } from "@/lib/http/respond";
import { demoApiResponse } from "@/lib/playground/demo-api";

export const dynamic = "force-dynamic";

async function get(request: Request, ctx: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  try {
    const { path = [] } = await ctx.params;
    const { status, body } = demoApiResponse({ path: `/${path.map(encodeURIComponent).join("/")}`, search: new URL(request.url).searchParams });
    return json(body, status, { "cache-control": "no-store" });
  } catch (err) {
    return fromThrown(err);
  }
}

const notAllowed = () => readOnly("The demo API is read-only: use GET.");

export { get as GET, get as HEAD, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE, notAllowed as OPTIONS };

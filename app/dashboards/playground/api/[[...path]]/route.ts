// GET /dashboards/playground/api/<api path> — the demo API: canned answers per scenario and variant,
// limited per client address.
import { fromThrown, readOnly } from "@/lib/http/respond";
import { appDemoApi } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

async function get(request: Request, ctx: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  try {
    const { path = [] } = await ctx.params;
    return appDemoApi(request, `/${path.map(encodeURIComponent).join("/")}`);
  } catch (err) {
    return fromThrown(err);
  }
}

const notAllowed = () => readOnly("The demo API is read-only: use GET.");

export { get as GET, get as HEAD, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE, notAllowed as OPTIONS };

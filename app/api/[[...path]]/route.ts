// /api/* — the read-only JSON API. Routing, auth, parsing and errors live in lib/http/api.
import { apiHandlers } from "@/lib/handlers";
import { userForRequest } from "@/lib/auth/session";
import { handleApi } from "@/lib/http/api";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const deps = { db: appDb, userFor: userForRequest, handlers: apiHandlers };

async function handle(request: Request, ctx: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  const { path = [] } = await ctx.params;
  return handleApi(request, `/${path.map(encodeURIComponent).join("/")}`, deps);
}

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };

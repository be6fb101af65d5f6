// GET /~/<handle>/<slug>/source[?revision=N] — a saved dashboard's HTML as plain text, for
// "view source" and restores. Signed-in people only, like the dashboard itself.
import { userForRequest } from "@/lib/auth/session";
import { errorResponse, readOnly } from "@/lib/http/respond";
import { revisionParam, segment } from "@/lib/saved/params";
import { loadDashboard } from "@/lib/saved/store";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ handle: string; slug: string }> };

export async function GET(request: Request, ctx: Ctx): Promise<Response> {
  const db = await appDb();
  if (!(await userForRequest(db, request))) return errorResponse("unauthorized", "Sign in to read saved dashboards.");
  const { handle, slug } = await ctx.params;
  const revision = revisionParam(new URL(request.url).searchParams.get("revision"));
  const dashboard = await loadDashboard(db, segment(handle), segment(slug), revision);
  if (!dashboard) return errorResponse("not_found", "No such dashboard or revision.");
  return new Response(dashboard.shown.html, {
    headers: {
      // Text, never rendered: the HTML is someone's dashboard, and runs only inside the frame.
      "content-type": "text/plain; charset=utf-8",
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
      "cache-control": "private, no-store",
      "x-revision": String(dashboard.shown.revision),
    },
  });
}

export const POST = () => readOnly();

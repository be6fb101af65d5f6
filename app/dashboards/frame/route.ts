// GET /dashboards/frame — the sandboxed frame's bootstrap document; the host page sends it the dashboard.
import { FRAME_HEADERS, bootstrapHtml } from "@/lib/frame/bootstrap";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return new Response(bootstrapHtml(), { status: 200, headers: FRAME_HEADERS });
}

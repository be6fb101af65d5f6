// GET /dashboards/playground/llms.txt — the agent protocol, generated from the registry
import { config } from "@/lib/config";
import { requestOrigin } from "@/lib/http/origin";
import { llmsText } from "@/lib/playground/llms";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return new Response(llmsText(requestOrigin(request, config().publicOrigin)), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=300", "referrer-policy": "no-referrer" },
  });
}

// GET /dashboards/playground/llms.txt — the agent protocol, generated from the registry
import { config } from "@/lib/config";
import { trustedOrigin } from "@/lib/http/origin";
import { fromThrown } from "@/lib/http/respond";
import { llmsText } from "@/lib/docs/llms";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  try {
    // The protocol names this server's URLs, and a cache may keep it: only a believed origin.
    return new Response(llmsText(trustedOrigin(request, config().publicOrigin)), {
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=300", "referrer-policy": "no-referrer" },
    });
  } catch (err) {
    return fromThrown(err);
  }
}

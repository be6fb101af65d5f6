// GET /dashboards/playground/scenarios — the demo scenarios, the default, and every path's variants.
import { json, readOnly } from "@/lib/http/respond";
import { scenariosBody } from "@/lib/playground/demo-answers";

// Fixed for a build, public and credential-free: shared caches may keep it briefly.
const caching = { "cache-control": "public, max-age=300" };

export function GET(): Response {
  return json(scenariosBody(), 200, caching);
}

const notAllowed = () => readOnly();
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

// GET /dashboards/playground/scenarios — the demo scenarios, the default, and every path's variants.
import { defineRoute } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { scenariosBody } from "@/lib/demo-api/answers";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  // Fixed for a build, public and credential-free: shared caches may keep it briefly.
  methods: (on) => ({ GET: on({ handle: () => json(scenariosBody(), 200, { "cache-control": "public, max-age=300" }) }) }),
});

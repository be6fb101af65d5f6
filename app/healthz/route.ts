// GET /healthz — the process is alive and serving requests; nothing else is checked (see /readyz).
import { defineRoute } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({ GET: on({ handle: () => json({ ok: true }, 200, { "cache-control": "no-store" }) }) }),
});

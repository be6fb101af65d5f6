// GET /readyz — whether this instance should get traffic: storage answers, migrations are
// applied, and on PostgreSQL the draft-update listener is connected. 503 names what is not.
import { app } from "@/lib/root";
import { defineRoute } from "@/lib/http/edge";
import { errorResponse, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    GET: on({
      handle: async () => {
        const r = await app().readiness();
        if (r.ready) return json({ ok: true }, 200, { "cache-control": "no-store" });
        return errorResponse("not_ready", r.hint, { "cache-control": "no-store", "retry-after": "5" });
      },
    }),
  }),
});

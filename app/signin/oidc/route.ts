// GET /signin/oidc — starts sign-in with the identity provider (only when one is configured)
import { config } from "@/lib/config";
import { oidcStart } from "@/lib/signin/oidc";
import { defineRoute } from "@/lib/http/edge";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Start sign-in with GET, from the /signin page.",
  methods: (on) => ({ GET: on({ handle: ({ request }) => oidcStart(request, { db: appDb, config: config() }) }) }),
});

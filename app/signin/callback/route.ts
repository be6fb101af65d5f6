// GET /signin/callback — the identity provider's answer to /signin/oidc
import { config } from "@/lib/config";
import { oidcCallback } from "@/lib/signin/oidc";
import { defineRoute } from "@/lib/http/edge";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "The identity provider returns here with GET.",
  methods: (on) => ({ GET: on({ handle: ({ request }) => oidcCallback(request, { db: appDb, config: config() }) }) }),
});

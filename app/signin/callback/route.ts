// GET /signin/callback — the identity provider's answer to /signin/oidc
import { oidcCallback } from "@/lib/signin/oidc";
import { defineRoute } from "@/lib/http/edge";
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "The identity provider returns here with GET.",
  methods: (on) => ({ GET: on({ handle: ({ request }) => oidcCallback(request, { db: app().db, config: app().config, discovery: app().oidcDiscovery }) }) }),
});

// GET /signin/oidc — starts sign-in with the identity provider (only when one is configured)
import { oidcStart } from "@/lib/signin/oidc";
import { defineRoute } from "@/lib/http/edge";
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Start sign-in with GET, from the /signin page.",
  methods: (on) => ({ GET: on({ handle: ({ request }) => oidcStart(request, { db: app().db, config: app().config, discovery: app().oidcDiscovery }) }) }),
});

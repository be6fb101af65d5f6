// POST /signin/demo — demo sign-in (only when no identity provider is configured)
import { demoSignIn } from "@/lib/signin/routes";
import { defineRoute } from "@/lib/http/edge";
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Sign in with POST from the /signin page.",
  methods: (on) => ({ POST: on({ handle: ({ request }) => demoSignIn(request, { db: app().db, config: app().config }) }) }),
});

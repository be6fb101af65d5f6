// POST /signout — ends the session
import { signOut } from "@/lib/signin/routes";
import { defineRoute } from "@/lib/http/edge";
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Sign out with POST from this site's own pages.",
  methods: (on) => ({ POST: on({ handle: ({ request }) => signOut(request, { db: app().db, config: app().config }) }) }),
});

// POST /signout — ends the session
import { config } from "@/lib/config";
import { signOut } from "@/lib/signin/routes";
import { defineRoute } from "@/lib/http/edge";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Sign out with POST from this site's own pages.",
  methods: (on) => ({ POST: on({ handle: ({ request }) => signOut(request, { db: appDb, config: config() }) }) }),
});

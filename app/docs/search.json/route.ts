// GET /docs/search.json — the reference's search index (lib/docs/search.ts), made at build time
// from the docs model the pages render. Pages ask for it with ?v=<hash of its text>, so a long
// cache never serves an index older than the page.
import { searchIndexJson } from "@/lib/docs/search-asset";
import { defineRoute } from "@/lib/http/edge";

export const dynamic = "force-static";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "The search index is read with GET.",
  methods: (on) => ({
    GET: on({
      handle: () =>
        new Response(searchIndexJson().text, {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "cache-control": "public, max-age=31536000, immutable",
            "x-content-type-options": "nosniff",
          },
        }),
    }),
  }),
});

// GET /docs/search.json — the reference's search index (lib/reference/search.ts), made once per process
// from the docs model the pages render (itself fixed at build: the contract and the demo data).
// Pages ask for it with ?v=<hash of its text>, so a year-long cache never serves an index older
// than the page that asks.
import { searchIndexJson } from "@/lib/reference/search-asset";
import { defineRoute } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

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

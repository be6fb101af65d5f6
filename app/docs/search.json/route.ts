// GET /docs/search.json — the reference's search index (lib/reference/search.ts), made once per process
// from the docs model the pages render (itself fixed at build: the contract and the demo data).
// Pages ask for it with ?v=<hash of its text>, so a year-long cache never serves an index older
// than the page that asks.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.reference.search;

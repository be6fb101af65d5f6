// GET /docs/<section>.md — one section of the API reference as Markdown; /docs/index.md, all of it;
// /docs/<operation anchor>.md, one endpoint or route. next.config.mjs rewrites those addresses
// here (and /docs, /docs/<section> asked with Accept: text/markdown), because /docs/<section> is
// the section's HTML page and one segment cannot be both a page and a route handler.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.reference.markdown;

// GET /docs/<section>.md — one section of the API reference as Markdown; /docs/index.md, all of it;
// /docs/<operation anchor>.md, one endpoint or route. next.config.mjs rewrites those addresses
// here (and /docs, /docs/<section> asked with Accept: text/markdown), because /docs/<section> is
// the section's HTML page and one segment cannot be both a page and a route handler.
import { app } from "@/lib/root";
import { operationMarkdown, referenceMarkdown, sectionMarkdown } from "@/lib/reference/markdown";
import { docsModel, sectionOf } from "@/lib/reference/model";
import { DOCS_INDEX_MD, docsSections, isSectionSlug, sectionMarkdownPath } from "@/lib/reference/sections";
import { defineRoute, oneParam } from "@/lib/http/edge";
import { requestOrigin } from "@/lib/http/origin";

export const dynamic = "force-dynamic";

const headers = {
  "content-type": "text/markdown; charset=utf-8",
  "cache-control": "public, max-age=300",
  vary: "Accept",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

function section(request: Request, name: string): Response {
  const origin = requestOrigin(request, app().config.publicOrigin);
  if (name === DOCS_INDEX_MD) return new Response(referenceMarkdown(docsModel(), origin), { headers });
  if (isSectionSlug(name)) return new Response(sectionMarkdown(sectionOf(docsModel(), name), origin), { headers });
  // One operation alone, by its anchor: what llms.txt links each endpoint and route to.
  const operation = docsModel().sections.flatMap((s) => s.operations).find((o) => o.anchor === name);
  if (operation) return new Response(operationMarkdown(operation, origin, 1), { headers });
  const known = [DOCS_INDEX_MD, ...docsSections.map((s) => s.slug)].map((s) => `- ${origin}${sectionMarkdownPath(s)}`);
  return new Response(`No such section of the reference. The sections:\n\n${known.join("\n")}\n`, {
    status: 404,
    headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
  });
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  params: (raw) => oneParam(raw, "name"),
  refuse: "The reference is read with GET.",
  methods: (on) => ({ GET: on({ handle: ({ request, params }) => section(request, params) }) }),
});

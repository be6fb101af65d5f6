// GET /docs/<section>.md — one section of the API reference as Markdown; /docs/index.md, all of it;
// /docs/<operation anchor>.md, one endpoint or route.
// (GET /docs with Accept: text/markdown is rewritten here by next.config.mjs.)
import { app } from "@/lib/app";
import { operationMarkdown, referenceMarkdown, sectionMarkdown } from "@/lib/docs/markdown";
import { docsModel, sectionOf } from "@/lib/docs/model";
import { DOCS_INDEX_MD, DOCS_PATH, docsSections, isSectionSlug, sectionMarkdownPath } from "@/lib/docs/sections";
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

function section(request: Request, section: string): Response {
  const origin = requestOrigin(request, app().config.publicOrigin);
  const name = section.endsWith(".md") ? section.slice(0, -3) : null;
  if (name === DOCS_INDEX_MD) return new Response(referenceMarkdown(docsModel(), origin), { headers });
  if (name !== null && isSectionSlug(name)) return new Response(sectionMarkdown(sectionOf(docsModel(), name), origin), { headers });
  // One operation alone, by its anchor: what llms.txt links each endpoint and route to.
  const operation = name === null ? undefined : docsModel().sections.flatMap((s) => s.operations).find((o) => o.anchor === name);
  if (operation) return new Response(operationMarkdown(operation, origin, 1), { headers });
  // A section's name without .md is a place on the HTML page.
  if (name === null && isSectionSlug(section)) {
    return new Response(null, { status: 308, headers: { location: `${DOCS_PATH}#${section}`, "cache-control": "public, max-age=300" } });
  }
  const known = [DOCS_INDEX_MD, ...docsSections.map((s) => s.slug)].map((s) => `- ${origin}${sectionMarkdownPath(s)}`);
  return new Response(`No such section of the reference. The sections:\n\n${known.join("\n")}\n`, {
    status: 404,
    headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
  });
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  params: (raw) => oneParam(raw, "section"),
  refuse: "The reference is read with GET.",
  methods: (on) => ({ GET: on({ handle: ({ request, params }) => section(request, params) }) }),
});

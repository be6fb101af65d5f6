import "server-only";
import type { Config } from "@/lib/config";
import { defineRoute, oneParam, type RouteModule } from "@/lib/http/edge";
import { requestOrigin, trustedOrigin } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { playgroundSettingsOf } from "@/lib/playground/settings";
import { llmsFullText, llmsText } from "./llms";
import { operationMarkdown, referenceMarkdown, sectionMarkdown } from "./markdown";
import { docsModel, sectionOf } from "./model";
import { openApiDocument } from "./openapi";
import { searchIndexJson } from "./search-asset";
import { DOCS_INDEX_MD, docsSections, isSectionSlug, sectionMarkdownPath } from "./sections";

// The reference's documents as route modules: OpenAPI, llms.txt and llms-full.txt, the Markdown
// of a section or an operation, and the search index. Each is made from the one docs model.

export interface ReferenceRoutes {
  /** GET /openapi.json */
  openapi: RouteModule;
  /** GET /dashboards/playground/llms.txt */
  llms: RouteModule;
  /** GET /dashboards/playground/llms-full.txt */
  llmsFull: RouteModule;
  /** GET /docs/<section>.md, /docs/index.md, /docs/<operation anchor>.md */
  markdown: RouteModule;
  /** GET /docs/search.json */
  search: RouteModule;
}

const TEXT_HEADERS = { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=300", "referrer-policy": "no-referrer" };

const MARKDOWN_HEADERS = {
  "content-type": "text/markdown; charset=utf-8",
  "cache-control": "public, max-age=300",
  vary: "Accept",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

function markdownOf(origin: string, name: string): Response {
  const headers = MARKDOWN_HEADERS;
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

export function referenceRoutes(config: Config): ReferenceRoutes {
  // What names this server's URLs, and a cache may keep: only a believed origin.
  const believed = (request: Request) => trustedOrigin(request, config.publicOrigin, config.allowedHosts);
  return {
    openapi: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({ GET: on({ handle: ({ request }) => json(openApiDocument(believed(request)), 200, { "cache-control": "public, max-age=300" }) }) }),
    }),
    llms: defineRoute({
      refuse: "Use GET.",
      // The limits it names are this deployment's own.
      methods: (on) => ({ GET: on({ handle: ({ request }) => new Response(llmsText(believed(request), playgroundSettingsOf(config)), { headers: TEXT_HEADERS }) }) }),
    }),
    llmsFull: defineRoute({
      refuse: "Use GET.",
      methods: (on) => ({ GET: on({ handle: ({ request }) => new Response(llmsFullText(believed(request)), { headers: TEXT_HEADERS }) }) }),
    }),
    markdown: defineRoute({
      params: (raw) => oneParam(raw, "name"),
      refuse: "The reference is read with GET.",
      methods: (on) => ({ GET: on({ handle: ({ request, params }) => markdownOf(requestOrigin(request, config.publicOrigin), params) }) }),
    }),
    search: defineRoute({
      refuse: "The search index is read with GET.",
      methods: (on) => ({
        GET: on({
          handle: () =>
            new Response(searchIndexJson().text, {
              headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" },
            }),
        }),
      }),
    }),
  };
}

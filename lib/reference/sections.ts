import type { Tag } from "@/lib/contract/endpoints";

// The reference's sections, in reading order. Kept apart from the model so llms.txt can link
// them without loading the demo data the model's examples come from.

export const DOCS_PATH = "/docs";
export const OPENAPI_PATH = "/openapi.json";
/** The whole reference as one Markdown document. */
export const DOCS_INDEX_MD = "index" as const;

export const docsSections = [
  {
    slug: "conventions",
    title: "Conventions",
    summary: "API base, sign-in, the error envelope, cursor paging, the CX wrapper, caching and the rules that trip authors up",
  },
  { slug: "me", title: "Profile, favourites and home", summary: "the signed-in person's profile, favourites and home path", tag: "me" },
  { slug: "connections", title: "Connection checks", summary: "one connector's read-only probe, as the calling person", tag: "connections" },
  { slug: "crm", title: "CRM", summary: "normalised companies, contacts and deals (keyset-paged), the summary and sync state", tag: "crm" },
  // The outside systems are two pages, each under the 250 KB a page may weigh; a system's
  // endpoints go where its path prefix is listed, and one listed nowhere fails the reference's build.
  {
    slug: "vendors",
    title: "Outside systems",
    summary: "direct reads of the issue tracker, code hosting and call recordings",
    tag: "vendors",
    paths: ["/vendors/tracker/", "/vendors/coderepo/", "/vendors/calls/"],
  },
  {
    slug: "messaging",
    title: "Customer messaging and the CRM portal",
    summary: "support conversations, one at a time with what was said, and the CRM portal's own lists",
    tag: "vendors",
    paths: ["/vendors/support/", "/vendors/crmportal/"],
  },
  { slug: "cx", title: "Customer success", summary: "the CSM roster, one CSM's book of business and the district rollup", tag: "cx" },
  { slug: "playground", title: "Playground", summary: "drafts: create, check, update and read one; public and credential-free" },
  { slug: "demo-api", title: "Demo API and agent tools", summary: "the demo API with its scenarios and variants, the endpoint list, llms.txt and the MCP tools" },
  { slug: "renders", title: "Render reports and renders", summary: "what a browser saw rendering each revision, and the service's own pictures of a draft" },
  { slug: "events", title: "Events", summary: "the draft stream: server-sent events with every revision" },
  { slug: "saving", title: "Saving a dashboard", summary: "a signed-in person's save into their own space, and reading it back" },
  { slug: "oauth", title: "Connecting an MCP host", summary: "OAuth 2.1 for MCP hosts that show a person's dashboards: metadata, registration, consent, tokens and revocation" },
  { slug: "operations", title: "Health and metrics", summary: "liveness and readiness for a proxy or orchestrator, and Prometheus metrics for operators" },
] as const satisfies readonly { slug: string; title: string; summary: string; tag?: Tag; paths?: readonly string[] }[];

export type SectionSlug = (typeof docsSections)[number]["slug"];

export function isSectionSlug(s: string): s is SectionSlug {
  return docsSections.some((x) => x.slug === s);
}

/** The Markdown form of a section (or of the whole reference, `index`). */
export function sectionMarkdownPath(slug: SectionSlug | typeof DOCS_INDEX_MD): string {
  return `${DOCS_PATH}/${slug}.md`;
}

/**
 * The fragment id of an operation: `GET /crm/:instance/companies` → `get-crm-instance-companies`,
 * `POST /~/:handle/:slug` → `post-space-handle-slug`.
 */
export function operationAnchor(method: string, path: string): string {
  const words = `${method} ${path.replace(/~/g, "space")}`.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return words.replace(/^-+|-+$/g, "");
}

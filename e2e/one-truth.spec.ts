import { expect, test, type APIRequestContext } from "@playwright/test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

// One truth per fact: every surface that states an endpoint's query parameters (describe_endpoint
// over MCP, the /docs page, the endpoint's Markdown, llms.txt and /openapi.json) states the same
// names, whether each is required, and the same bounds, as the production server serves them.
// A surface that said "limit 1 to 200" of an endpoint that takes no limit fails here.

interface Fact {
  name: string;
  required: boolean;
  /** The bounds a surface states, in the order it states them. */
  bounds: number[];
}

interface Described {
  path: string;
  query: { name: string; required: boolean; min?: number; max?: number; description?: string }[];
}

const numbers = (text: string) => [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
const sorted = (facts: Fact[]) => [...facts].sort((a, b) => a.name.localeCompare(b.name));

/** The Markdown page's query table: `| \`name\` | query | type | yes | 1 to 365 | notes |`. */
function markdownFacts(md: string): Fact[] {
  return [...md.matchAll(/^\| `([a-zA-Z_]+)` \| query \| [^|]*(?:\\\|[^|]*)* \| (yes|no) \| ([^|]*) \|/gm)].map((m) => ({ name: m[1]!, required: m[2] === "yes", bounds: numbers(m[3]!) }));
}

/** The /docs page's rows for one operation: `<tr id="<anchor>--param-query-<name>">…<td>yes</td><td>1 to 365</td>`. */
function htmlFacts(html: string, anchor: string): Fact[] {
  const rows = [...html.matchAll(new RegExp(`<tr id="${anchor}--param-query-([a-zA-Z_]+)"[^>]*>(.*?)</tr>`, "g"))];
  return rows.map((m) => {
    const cells = [...m[2]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, ""));
    // in, type, required, limits, notes
    return { name: m[1]!, required: cells[2] === "yes", bounds: numbers(cells[3] ?? "") };
  });
}

/** llms.txt's line: `- [\`/cx/book?owner&days?\`](…)`: the names, and which are optional. */
function indexFacts(index: string, path: string): Omit<Fact, "bounds">[] {
  const line = index.split("\n").find((l) => l.startsWith(`- [\`${path}?`) || l.startsWith(`- [\`${path}\``));
  expect(line, `llms.txt lists ${path}`).toBeTruthy();
  const query = /^- \[`[^?`]*\?([^`]*)`/.exec(line!)?.[1];
  if (!query) return [];
  return query.split("&").map((p) => ({ name: p.replace(/\?$/, ""), required: !p.endsWith("?") }));
}

type OpenApiParam = { name: string; in: string; required?: boolean; schema?: { minimum?: number; maximum?: number; minLength?: number; maxLength?: number } };

function openApiFacts(doc: { paths: Record<string, { get?: { parameters?: OpenApiParam[] } }> }, path: string): Fact[] {
  const key = path.replace(/:([a-z_]+)/g, "{$1}");
  const params = doc.paths[key]?.get?.parameters;
  expect(params, `/openapi.json has ${key}`).toBeDefined();
  return params!
    .filter((p) => p.in === "query")
    .map((p) => ({
      name: p.name,
      required: p.required === true,
      bounds: [p.schema?.minimum ?? p.schema?.minLength, p.schema?.maximum ?? p.schema?.maxLength].filter((n): n is number => typeof n === "number"),
    }));
}

async function text(request: APIRequestContext, path: string): Promise<string> {
  const res = await request.get(path);
  expect(res.status(), path).toBe(200);
  return res.text();
}

test("every endpoint's query parameters and their limits are stated alike by describe_endpoint, /docs, its Markdown, llms.txt and OpenAPI", async ({ request, baseURL }) => {
  test.setTimeout(90_000);
  const client = new Client({ name: "one-truth", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/dashboards/playground/mcp`)));
  const index = await text(request, "/dashboards/playground/llms.txt");
  const openApi = JSON.parse(await text(request, "/openapi.json")) as Parameters<typeof openApiFacts>[0];
  const pages = new Map<string, string>();
  const lines = index.split("\n").filter((l) => /^- \[`\//.test(l));
  expect(lines.length).toBeGreaterThan(20);
  for (const line of lines) {
    const path = /^- \[`([^?`]+)/.exec(line)![1]!;
    const md = /\]\((\/docs\/[a-z0-9-]+\.md)\)/.exec(line)![1]!;
    const anchor = md.slice("/docs/".length, -".md".length);
    const markdown = await text(request, md);
    // The Markdown names its section's HTML page; the same rows are read there.
    const section = new RegExp(`/docs/([a-z-]+)#${anchor}`).exec(markdown)?.[1];
    expect(section, `${md} names its HTML page`).toBeTruthy();
    if (!pages.has(section!)) pages.set(section!, await text(request, `/docs/${section}`));

    const described = (await client.callTool({ name: "describe_endpoint", arguments: { path } })).structuredContent as unknown as Described;
    expect(described.path).toBe(path);
    const truth = sorted(described.query.map((q) => ({ name: q.name, required: q.required, bounds: [q.min, q.max].filter((n): n is number => typeof n === "number") })));

    expect(sorted(markdownFacts(markdown)), `${path}: its Markdown`).toEqual(truth);
    expect(sorted(htmlFacts(pages.get(section!)!, anchor)), `${path}: /docs/${section}`).toEqual(truth);
    expect(sorted(openApiFacts(openApi, path)), `${path}: /openapi.json`).toEqual(truth);
    expect(
      indexFacts(index, path).sort((a, b) => a.name.localeCompare(b.name)),
      `${path}: llms.txt`,
    ).toEqual(truth.map(({ name, required }) => ({ name, required })));
    // What a parameter means (its default among it) is the registry's sentence on every surface.
    for (const q of described.query) if (q.description) expect(markdown, `${path} ${q.name}`).toContain(q.description.replace(/\|/g, "\\|"));
  }
  // The fact that went wrong once: conversations page by cursor alone, and nothing says limit.
  const conversations = await text(request, "/docs/get-vendors-support-conversations.md");
  expect(markdownFacts(conversations).map((f) => f.name)).toEqual(["cursor"]);
  expect(index).not.toMatch(/Paged API lists: `limit`/);
  await client.close();
});

import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { describeShape } from "@/lib/contract/describe";
import { endpoints } from "@/lib/contract/endpoints";
import { DOCS_PATH, OPENAPI_PATH, sectionMarkdownPath } from "./sections";
import { curlSnippet, fetchSnippet } from "./snippets";
import { shorten } from "./examples";
import { groupResponses, type Block, type DocsModel, OPERATOR_ACCESS, type FieldRow, type OperationDoc, type ParamDoc, type SectionDoc } from "./types";

// The reference as Markdown, for agents and anyone reading without a browser: the same model
// the /docs page renders, section by section (`/docs/<section>.md`) or whole (`/docs/index.md`).

export const withOrigin = (text: string, origin: string) => text.replaceAll("{origin}", origin);

/** In-page links (`#cursor-paging`) point at the HTML reference when read as Markdown. */
function absoluteLinks(text: string, origin: string): string {
  return text.replace(/\]\((#[^)]+|\/[^)]*)\)/g, (_, href: string) => `](${origin}${href.startsWith("#") ? DOCS_PATH + href : href})`);
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ") || " ";

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${head.map(cell).join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
}

function fence(lang: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

export function blocksMarkdown(blocks: Block[], origin: string, level: number): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case "p":
        out.push(absoluteLinks(withOrigin(b.text, origin), origin));
        break;
      case "h":
        out.push(`${"#".repeat(Math.min(level, 6))} ${b.text}`);
        break;
      case "list":
        out.push(b.items.map((i) => `- ${absoluteLinks(withOrigin(i, origin), origin)}`).join("\n"));
        break;
      case "code":
        out.push(`${b.label}:`, fence(b.lang, withOrigin(b.text, origin)));
        break;
      case "table":
        out.push(`${b.caption}:`, table(b.head, b.rows));
        break;
    }
  }
  return out.join("\n\n");
}

const yes = (b: boolean) => (b ? "yes" : "no");

function paramsTable(params: ParamDoc[]): string {
  return table(
    ["name", "in", "type", "required", "limits", "notes"],
    params.map((p) => [`\`${p.name}\``, p.in, p.type, yes(p.required), p.limits, p.notes]),
  );
}

function fieldsTable(fields: FieldRow[]): string {
  return table(
    ["field", "type", "nullable", "required", "notes"],
    fields.map((f) => [`\`${f.name}\``, f.type, yes(f.nullable), yes(f.required), f.notes]),
  );
}

function registryShape(op: OperationDoc): string | undefined {
  const endpoint = op.registryId === undefined ? undefined : endpoints.find((e) => e.id === op.registryId);
  return endpoint ? describeShape(endpoint.response) : undefined;
}

export function operationMarkdown(op: OperationDoc, origin: string, level: number): string {
  const out: string[] = [`${"#".repeat(level)} ${op.method} ${op.path}`, `${op.summary}.`];
  if (op.base === "api") out.push(`Relative to the API base (\`/api\`; \`${PLAYGROUND_API_BASE}\` in the playground). HTML reference: ${origin}${DOCS_PATH}/${op.section}#${op.anchor}`);
  else out.push(`HTML reference: ${origin}${DOCS_PATH}/${op.section}#${op.anchor}`);
  if (op.description.length) out.push(blocksMarkdown(op.description, origin, level + 1));
  if (op.security === "session") out.push("Sign-in: the session cookie; 401 `unauthorized` without it.");
  if (op.security === "session-same-origin") out.push("Sign-in: the session cookie, from the person's own page on this site, with its CSRF token.");
  if (op.security === "none") out.push("Sign-in: none; public.");
  if (op.security === "operator") out.push(OPERATOR_ACCESS);
  const paths = op.params.filter((p) => p.in === "path");
  const others = op.params.filter((p) => p.in !== "path");
  if (paths.length) out.push("Path parameters:", paramsTable(paths));
  if (others.length) out.push(op.params.some((p) => p.in === "header") ? "Query parameters and headers:" : "Query parameters:", paramsTable(others));
  for (const body of op.requestBodies) {
    out.push(`Request body (\`${body.contentType}\`): ${body.description}`);
    if (body.fields.length) out.push(fieldsTable(body.fields));
  }
  for (const { statuses, response: r } of groupResponses(op.responses)) {
    const what = statuses.length > 1 ? op.responses.map((x) => `${x.status}: ${x.description}`).join("; ") : r.description;
    out.push(`Response ${statuses.join(" or ")} (\`${r.contentType}\`): ${what}.`);
    // An API answer reads as its shape, each field's meaning beside it (field?: may be absent,
    // | null may be null): the same words as the table the HTML shows, in half the bytes.
    const shape = statuses.length === 1 && statuses[0] === 200 ? registryShape(op) : undefined;
    if (shape) out.push(fence("ts", shape));
    else if (r.fields.length) out.push(fieldsTable(r.fields));
  }
  if (op.errors.length) out.push("Errors (body: the error envelope `{error, hint?}`):", table(["status", "error", "meaning"], op.errors.map((e) => [String(e.status), `\`${e.code}\``, e.description])));
  if (op.example) {
    // Beside the answer's shape, one record of each list shows the data; the HTML shows more.
    const { value, shortened } = shorten(op.example.body, 1);
    const note = shortened || op.example.shortened ? " Lists are cut to their first item here." : "";
    out.push(`Example: \`GET ${op.example.request}\` answered by the demo data (${op.example.status}).${note}`, fence("json", JSON.stringify(value, null, 2)));
  }
  const js = fetchSnippet(op);
  if (js) out.push("fetch:", fence("js", js));
  const sh = curlSnippet(op, origin);
  if (sh) out.push("curl:", fence("sh", sh));
  else if (op.operationId === "saving.save") out.push("No curl: a save is refused unless it comes from the signed-in person's own page with its CSRF token.");
  return out.join("\n\n");
}

export function sectionMarkdown(section: SectionDoc, origin: string, level = 1): string {
  const out = [`${"#".repeat(level)} ${section.title}`];
  if (level === 1) out.push(`> Part of the dashboard data service's API reference: ${origin}${DOCS_PATH}/${section.slug}. Whole reference as Markdown: ${origin}${sectionMarkdownPath("index")}. OpenAPI: ${origin}${OPENAPI_PATH}.`);
  if (section.intro.length) out.push(blocksMarkdown(section.intro, origin, level + 1));
  for (const op of section.operations) out.push(operationMarkdown(op, origin, level + 1));
  return out.join("\n\n") + "\n";
}

export function referenceMarkdown(model: DocsModel, origin: string): string {
  const out = [
    "# Dashboard data service: API reference",
    `> Every endpoint with its fields, errors and an example, generated from the contract. HTML: ${origin}${DOCS_PATH}. OpenAPI 3.1: ${origin}${OPENAPI_PATH}.`,
    "## Contents",
    model.sections.map((s) => `- [${s.title}](${origin}${sectionMarkdownPath(s.slug)}): ${s.summary}`).join("\n"),
  ];
  for (const s of model.sections) out.push(sectionMarkdown(s, origin, 2).trimEnd());
  return out.join("\n\n") + "\n";
}

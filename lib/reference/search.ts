import { operationRowIds } from "./anchors";
import { groupResponses, type Block, type DocsModel, type OperationDoc, type SectionDoc } from "./types";

// The reference's search index: every endpoint, parameter, field, error code, heading and
// paragraph, each with the place on its section page that shows it. Built from the docs model,
// the same one the pages render, and searched in the browser (components/docs/DocsSearch.tsx).

export type SearchKind = "endpoint" | "param" | "field" | "error" | "heading" | "prose";

export interface SearchEntry {
  k: SearchKind;
  /** What a result shows and is matched by first: a name, a title or the start of a paragraph. */
  n: string;
  /** Where it is: the operation or section it belongs to. */
  c: string;
  /** `<section>#<anchor>`, under /docs. */
  h: string;
  /** More text a search may match: a field's notes, a paragraph. */
  t?: string;
}

export interface SearchIndex {
  entries: SearchEntry[];
}

/** Inline markup as the words a reader sees. */
function plainText(text: string): string {
  return text
    .replace(/\[([^\]]+)\]\([^)\s]+\)/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\{origin\}/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function proseEntries(blocks: Block[], section: SectionDoc, context: string, firstAnchor: string): SearchEntry[] {
  const out: SearchEntry[] = [];
  let anchor = firstAnchor;
  let where = context;
  const add = (text: string) => {
    const t = plainText(text);
    if (t) out.push({ k: "prose", n: t.length > 90 ? `${t.slice(0, 88)}…` : t, c: where, h: `${section.slug}#${anchor}`, t });
  };
  for (const b of blocks) {
    if (b.kind === "h") {
      if (b.id) {
        anchor = b.id;
        where = `${section.title} › ${b.text}`;
        out.push({ k: "heading", n: b.text, c: section.title, h: `${section.slug}#${b.id}` });
      }
    } else if (b.kind === "p") add(b.text);
    else if (b.kind === "list") b.items.forEach(add);
    else if (b.kind === "table") b.rows.forEach((row) => add(row.join(" — ")));
  }
  return out;
}

function operationEntries(op: OperationDoc, section: SectionDoc): SearchEntry[] {
  const title = `${op.method} ${op.path}`;
  const ids = operationRowIds(op);
  const at = (anchor: string) => `${section.slug}#${anchor}`;
  const out: SearchEntry[] = [{ k: "endpoint", n: title, c: section.title, h: at(op.anchor), t: plainText(op.summary) }];
  op.params.forEach((p, i) => out.push({ k: "param", n: p.name, c: `${p.in} parameter of ${title}`, h: at(ids.params[i] ?? op.anchor), t: plainText(p.notes) }));
  op.requestBodies.forEach((b, i) =>
    b.fields.forEach((f, j) => out.push({ k: "field", n: f.name, c: `request body of ${title}`, h: at(ids.requestBodies[i]?.[j] ?? op.anchor), t: plainText(f.notes) })),
  );
  groupResponses(op.responses).forEach(({ statuses, response }, i) =>
    response.fields.forEach((f, j) =>
      out.push({ k: "field", n: f.name, c: `${statuses.join(" or ")} answer of ${title}`, h: at(ids.responses[i]?.[j] ?? op.anchor), t: plainText(f.notes) }),
    ),
  );
  op.errors.forEach((e, i) => out.push({ k: "error", n: e.code, c: `${e.status} from ${title}`, h: at(ids.errors[i] ?? op.anchor), t: plainText(e.description) }));
  out.push(...proseEntries(op.description, section, title, op.anchor));
  return out;
}

export function searchIndex(model: DocsModel): SearchIndex {
  const entries: SearchEntry[] = [];
  for (const s of model.sections) {
    entries.push({ k: "heading", n: s.title, c: "Section", h: `${s.slug}#${s.slug}`, t: s.summary });
    entries.push(...proseEntries(s.intro, s, s.title, s.slug));
    for (const op of s.operations) entries.push(...operationEntries(op, s));
  }
  return { entries };
}

import { DOCS_PATH, type SectionSlug } from "./sections";
import { groupResponses, type Block, type DocsModel, type OperationDoc } from "./types";

// Where each place of the reference lives now that it is served a section per page. The HTML
// pages, the search index and the redirect of old `/docs#<anchor>` links all read these ids, so
// a row the index points at is the row the page renders.

/** The page of one section. */
export function sectionPath(slug: SectionSlug): string {
  return `${DOCS_PATH}/${slug}`;
}

/** A place on the reference, by the section that holds it. */
function anchorHref(section: SectionSlug, anchor: string): string {
  return `${sectionPath(section)}#${anchor}`;
}

const idPart = (name: string) =>
  name
    .replace(/\[\]/g, "")
    .replace(/[^A-Za-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** Ids of one table's rows: unique within the table, readable in an address. */
function rowIds(prefix: string, names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    const base = `${prefix}-${idPart(name)}`;
    let id = base;
    for (let n = 2; seen.has(id); n++) id = `${base}-${n}`;
    seen.add(id);
    return id;
  });
}

interface OperationRowIds {
  params: string[];
  /** Per request body, in the operation's order. */
  requestBodies: string[][];
  /** Per response group (groupResponses), in its order. */
  responses: string[][];
  errors: string[];
}

/** The id of every row of an operation's tables, so a search result can land on the row. */
export function operationRowIds(op: OperationDoc): OperationRowIds {
  return {
    params: rowIds(`${op.anchor}--param`, op.params.map((p) => `${p.in}-${p.name}`)),
    requestBodies: op.requestBodies.map((b, i) => rowIds(`${op.anchor}--body${op.requestBodies.length > 1 ? i + 1 : ""}`, b.fields.map((f) => f.name))),
    responses: groupResponses(op.responses).map(({ statuses, response }) => rowIds(`${op.anchor}--${statuses.join("-")}`, response.fields.map((f) => f.name))),
    errors: rowIds(`${op.anchor}--error`, op.errors.map((e) => e.code)),
  };
}

const headingIds = (blocks: Block[]) => blocks.flatMap((b) => (b.kind === "h" && b.id ? [b.id] : []));

/**
 * Every id the single-page reference had that a link may still carry (sections, their
 * headings, operations and their titles), with the section that now holds it.
 */
export function anchorSections(model: DocsModel): Record<string, SectionSlug> {
  const map: Record<string, SectionSlug> = {};
  for (const s of model.sections) {
    for (const id of [s.slug, `${s.slug}-title`, ...headingIds(s.intro)]) map[id] = s.slug;
    for (const op of s.operations) {
      for (const id of [op.anchor, `${op.anchor}-title`, ...headingIds(op.description)]) map[id] = s.slug;
    }
  }
  return map;
}

/** `](#anchor)` in prose made to point at the section page that holds the anchor. */
export function linkAnchors(text: string, map: Record<string, SectionSlug>): string {
  return text.replace(/\]\(#([^)\s]+)\)/g, (whole, anchor: string) => {
    const section = map[anchor];
    return section ? `](${anchorHref(section, anchor)})` : whole;
  });
}

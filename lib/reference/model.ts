import { errorEnvelope } from "@/lib/contract/resources";
import { SchemaSet } from "./json-schema";
import { buildOperations } from "./operations";
import { sectionIntro } from "./prose";
import { docsSections, type SectionSlug } from "./sections";
import type { DocsModel, OperationDoc, SectionDoc } from "./types";

// The reference, built once per process from the contract and the demo data. Nothing in it
// depends on the request; `{origin}` in prose is filled in by the renderers.

export const ERROR_ENVELOPE = "ErrorEnvelope";

let cached: DocsModel | undefined;

export function docsModel(): DocsModel {
  cached ??= build();
  return cached;
}

function build(): DocsModel {
  const set = new SchemaSet();
  // The envelope is a named schema, so converting it defines the component.
  set.add(errorEnvelope);
  const operations = buildOperations(set);
  const sections: SectionDoc[] = docsSections.map((s) => ({
    slug: s.slug,
    title: s.title,
    summary: s.summary,
    intro: sectionIntro(s.slug),
    operations: operations.filter((o) => o.section === s.slug),
  }));
  return { sections, components: set.components };
}

export function sectionOf(model: DocsModel, slug: SectionSlug): SectionDoc {
  const found = model.sections.find((s) => s.slug === slug);
  if (!found) throw new Error(`No section ${slug}`);
  return found;
}

export function allOperations(model: DocsModel): OperationDoc[] {
  return model.sections.flatMap((s) => s.operations);
}

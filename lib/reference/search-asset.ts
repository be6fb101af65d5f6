import "server-only";
import { createHash } from "node:crypto";
import { anchorSections } from "./anchors";
import { docsModel } from "./model";
import { searchIndex } from "./search";
import type { SectionSlug } from "./sections";

// The search index as served, and the version pages ask for it by; built once per process
// from the one docs model.

let cached: { text: string; version: string } | undefined;

export function searchIndexJson(): { text: string; version: string } {
  if (!cached) {
    const text = JSON.stringify(searchIndex(docsModel()));
    cached = { text, version: createHash("sha256").update(text).digest("hex").slice(0, 12) };
  }
  return cached;
}

let anchors: Record<string, SectionSlug> | undefined;

/** Every old single-page anchor and the section page that holds it. */
export function docsAnchors(): Record<string, SectionSlug> {
  anchors ??= anchorSections(docsModel());
  return anchors;
}

// Names of saved dashboards, shared by the save route and the pages that propose one.

import { SLUG_PATTERN } from "@/lib/contract/playground-limits";
import { neutralised } from "@/lib/contract/display-text";

export { SLUG_PATTERN };

/** A <title> is looked for only this far into a document. */
export const TITLE_SEARCH_CHARS = 64 * 1024;

/**
 * The text of a dashboard's own `<title>`, entities decoded and spaces folded, if it has one.
 * It is content, so characters that would make it show other than it reads (bidirectional
 * controls, zero-width and control characters, written out or as entities) are taken out, not
 * refused: pages, the tab and the space's list show what is left.
 */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(html.slice(0, TITLE_SEARCH_CHARS));
  const text = m?.[1] ? neutralised(decodeEntities(m[1])).replace(/\s+/g, " ").trim() : "";
  return text || undefined;
}

function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ent: string) => {
    if (ent[0] === "#") {
      const code = ent[1] === "x" || ent[1] === "X" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[ent.toLowerCase()] ?? whole;
  });
}

/** A name the save endpoint accepts, made from whatever was suggested (a draft's `dash`, a title). */
export function toSlug(text: string | null | undefined): string {
  const slug = (text ?? "")
    .toLowerCase()
    .normalize("NFKD")
    // Accents come apart from their letters under NFKD; dropping the marks keeps "crème" one word.
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug || "dashboard";
}

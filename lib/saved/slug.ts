// Names of saved dashboards, shared by the save route and the pages that propose one.

import { SLUG_PATTERN } from "@/lib/contract/playground-limits";
import { neutralised } from "@/lib/contract/display-text";

export { SLUG_PATTERN };

/** A <title> is looked for only this far into a document. */
export const TITLE_SEARCH_CHARS = 64 * 1024;

/** What the space and a saved dashboard's header show of a title, at most. */
export const TITLE_MAX = 200;

const TITLE_TAG = /<title[^>]*>([^<]*)<\/title>/i;

/**
 * The text of a dashboard's own `<title>`, entities decoded and spaces folded, if it has one.
 * It is content, so characters that would make it show other than it reads (bidirectional
 * controls, zero-width and control characters, written out or as entities) are taken out, not
 * refused: pages, the tab and the space's list show what is left.
 */
export function htmlTitle(html: string): string | undefined {
  const m = TITLE_TAG.exec(html.slice(0, TITLE_SEARCH_CHARS));
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

/** The address the save form proposes: the one typed, else the suggested name until a title is typed, else the title's. */
export function proposedAddress(form: { title: string; titleTyped: boolean; addressTyped: string | null; suggested?: string | null }): string {
  if (form.addressTyped !== null) return form.addressTyped;
  if (!form.titleTyped && form.suggested) return toSlug(form.suggested);
  return toSlug(form.title);
}

/** Why a typed title cannot be saved as it reads, or null when it can. */
export function titleProblem(title: string): string | null {
  const text = title.replace(/\s+/g, " ").trim();
  if (!text) return "Give the dashboard a title.";
  if (text.length > TITLE_MAX) return `A title may be at most ${TITLE_MAX} characters; this one has ${text.length}.`;
  // Refused rather than quietly taken out: the person would see a title other than the one typed.
  if (neutralised(text) !== text) return "The title contains invisible or direction-changing characters; remove them.";
  return null;
}

/**
 * The document with `title` as the `<title>` the save route reads (the first one in its first
 * TITLE_SEARCH_CHARS, replaced; or one put at the start of its head), so every page that names a
 * saved dashboard shows what was typed. Null when the document's shape defeats that.
 */
export function withTitle(html: string, title: string): string | null {
  const wanted = title.replace(/\s+/g, " ").trim();
  if (htmlTitle(html) === wanted) return html;
  const text = wanted.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const searched = html.slice(0, TITLE_SEARCH_CHARS);
  const m = TITLE_TAG.exec(searched);
  let next: string;
  if (m) {
    const close = m[0].slice(-"</title>".length);
    const open = m[0].slice(0, m[0].length - m[1]!.length - close.length);
    next = html.slice(0, m.index) + open + text + close + html.slice(m.index + m[0].length);
  } else {
    const tag = `<title>${text}</title>`;
    const after = [/<head(?:\s[^>]*)?>/i, /<html(?:\s[^>]*)?>/i, /<!doctype[^>]*>/i].map((re) => re.exec(searched)).find((found) => found !== null);
    const at = after ? after.index + after[0].length : 0;
    next = html.slice(0, at) + tag + html.slice(at);
  }
  return htmlTitle(next) === wanted ? next : null;
}

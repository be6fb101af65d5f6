// What the search hands the page it opens: which place, and which words on it to mark. Kept in
// sessionStorage so a plain navigation carries it, and read once.

const HIGHLIGHT_KEY = "docs-search-highlight";
/** Dispatched on window when a result is the place already shown, where no hashchange comes. */
export const HIGHLIGHT_EVENT = "docs-search-highlight";
/** The CSS custom highlight the match is painted with (docs.module.css). */
export const HIGHLIGHT_NAME = "docs-search";

interface HighlightWish {
  path: string;
  anchor: string;
  term: string;
}

export function saveWish(wish: HighlightWish): void {
  try {
    sessionStorage.setItem(HIGHLIGHT_KEY, JSON.stringify(wish));
  } catch {
    // Storage refused (a private window's quota): the page still opens at the place.
  }
}

export function takeWish(): HighlightWish | null {
  try {
    const raw = sessionStorage.getItem(HIGHLIGHT_KEY);
    sessionStorage.removeItem(HIGHLIGHT_KEY);
    const v: unknown = raw ? JSON.parse(raw) : null;
    if (typeof v !== "object" || v === null) return null;
    const w = v as Record<string, unknown>;
    return typeof w.path === "string" && typeof w.anchor === "string" && typeof w.term === "string" ? { path: w.path, anchor: w.anchor, term: w.term } : null;
  } catch {
    return null;
  }
}

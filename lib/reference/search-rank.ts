import type { SearchEntry, SearchKind } from "./search";

// Ranking the search index in the browser: a name that is the query beats one that starts with
// it, which beats one that holds it, which beats a match in the text around it. Small enough to
// ship to the page; the index is a few thousand entries.

const KIND_WEIGHT: Record<SearchKind, number> = { endpoint: 6, error: 5, field: 4, param: 3, heading: 2, prose: 0 };

/** The last part of a dotted field path (`rows[].waitingOn` → `waitingon`), lower case. */
function leaf(name: string): string {
  return name.toLowerCase().split(/[.\s]/).at(-1)?.replace(/\[\]$/, "") ?? "";
}

function scoreEntry(e: SearchEntry, query: string): number {
  const q = query.trim().toLowerCase().replace(/\s+/g, " ");
  if (!q) return 0;
  const words = q.split(" ");
  const name = e.n.toLowerCase();
  const text = (e.t ?? "").toLowerCase();
  const context = e.c.toLowerCase();
  if (!words.every((w) => name.includes(w) || text.includes(w) || context.includes(w))) return 0;
  let score: number;
  if (name === q || leaf(e.n) === q) score = 100;
  else if (name.startsWith(q) || leaf(e.n).startsWith(q)) score = 70;
  else if (name.includes(q)) score = 50;
  else if (words.every((w) => name.includes(w))) score = 40;
  else if (text.includes(q)) score = 25;
  else if (words.every((w) => text.includes(w))) score = 20;
  else score = 10;
  return score + KIND_WEIGHT[e.k];
}

export function searchEntries(entries: readonly SearchEntry[], query: string, limit = 12): SearchEntry[] {
  const scored: { e: SearchEntry; s: number; i: number }[] = [];
  entries.forEach((e, i) => {
    const s = scoreEntry(e, query);
    if (s > 0) scored.push({ e, s, i });
  });
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.slice(0, limit).map((x) => x.e);
}

/**
 * The words to mark on the page the result opens: the name a field, parameter or error code is
 * known by, else the query as typed (or its first word the text holds).
 */
export function highlightTerm(e: SearchEntry, query: string): string {
  if (e.k === "field" || e.k === "param" || e.k === "error") return e.n.split(".").at(-1)?.replace(/\[\]$/, "") ?? e.n;
  const q = query.trim().replace(/\s+/g, " ");
  const hay = `${e.n} ${e.t ?? ""}`.toLowerCase();
  if (hay.includes(q.toLowerCase())) return q;
  return q.split(" ").find((w) => hay.includes(w.toLowerCase())) ?? q;
}

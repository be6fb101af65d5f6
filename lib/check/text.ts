import type { Context } from "./context";

// Checks on words a viewer reads: HTML text, visible attributes, and strings in code (which a
// dashboard drawn by script puts on screen). Comments are never text.

const DERIVED = /\bderived\b/i;
const PRIORITY = /priorit/i;
// "priority" and a word that makes it a promise or a grade, in one phrase: at least one space
// between them (so `priority-score` or `priority.score`, names rather than words, do not count)
// and no sentence or markup boundary.
// "Score" only after "priority": "Health score and priority" grades health, not priority.
const PROMISE_AFTER = String.raw`(?:SLAs?|guarantee[ds]?|guaranteed|targets?|scores?|scored)`;
const PROMISE_BEFORE = String.raw`(?:SLAs?|guarantee[ds]?|guaranteed|targets?|targeted)`;
const GAP = String.raw`[^.;:,!?<>"'=\n{}|/\x60]{0,24}?`;
const JOINED = /\b(?:and|or|vs|versus|with|plus|by)\b/i;
const PRIORITY_PHRASE = new RegExp(
  String.raw`\bpriority\b(?<gapA>${GAP})\b(?<wordA>${PROMISE_AFTER})\b|\b(?<wordB>${PROMISE_BEFORE})\b(?<gapB>${GAP})\bpriority\b`,
  "gid",
);
const NEGATED = /\b(?:not|never|no)\s+(?:an?\s+|the\s+)?$/i;

export function checkText(ctx: Context, text: string, offset: number): void {
  if (!ctx.facts.derivedLabel && DERIVED.test(text)) ctx.facts.derivedLabel = true;
  if (!PRIORITY.test(text)) return;
  PRIORITY_PHRASE.lastIndex = 0;
  for (let m = PRIORITY_PHRASE.exec(text); m; m = PRIORITY_PHRASE.exec(text)) {
    const groups = m.indices?.groups;
    const gap = m.groups?.gapA ?? m.groups?.gapB ?? "";
    const word = groups?.wordA ?? groups?.wordB;
    if (!/\s/.test(gap) || JOINED.test(gap) || !word) continue;
    // "Priority (a triage rank, not an SLA)" says exactly the right thing.
    if (NEGATED.test(text.slice(Math.max(0, word[0] - 12), word[0]))) continue;
    ctx.report(
      "priority-misrepresented",
      offset + m.index,
      `"${m[0].replace(/\s+/g, " ")}" presents priority as a promise or a grade; it is a heuristic triage rank within this book.`,
      "Call it a triage rank (e.g. \"Priority rank\", \"Triage order\"), never a score, target, guarantee or SLA, and show `priority.reasons` beside it.",
    );
  }
}

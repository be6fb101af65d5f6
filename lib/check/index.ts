import type { DraftWarning } from "@/lib/contract/resources";
import { clip, Context } from "./context";
import { scanHtml, type JsonBlock } from "./html";
import { isSnapshotTime, SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/snapshot";
import { analyseScript } from "./js";
import type { DraftReads } from "./reads";

// The static check of a draft: the same code runs in the editor (browser) and on the server
// when a draft is created or updated. It parses the HTML (htmlparser2), every inline script and
// event-handler attribute (meriyah) and every stylesheet, and reports what would break or mislead
// once the dashboard runs in its sandboxed frame against the API.

export { checkRules, type RuleId } from "./rules";
export { type DraftReads } from "./reads";

export function checkDraft(html: string): DraftWarning[] {
  return analyseDraft(html).warnings;
}

/** The check's findings and the manifest of API paths the document reads, from one pass. */
/**
 * Nothing but whitespace and HTML comments (an unclosed comment runs to the end, as a parser
 * reads it): a document that shows nothing. The playground refuses such a revision outright.
 */
export function isBlankDocument(html: string): boolean {
  return html.replace(/<!--[\s\S]*?(?:-->|$)/g, "").trim() === "";
}

export function analyseDraft(html: string): { warnings: DraftWarning[]; reads: DraftReads; params: string[] } {
  const ctx = new Context(html);
  const done = () => {
    const reads = settleReads(ctx);
    return { warnings: ctx.warnings(), reads, params: [...ctx.params] };
  };
  if (isBlankDocument(html)) {
    ctx.report(
      "empty-document",
      0,
      "The draft is empty: there is nothing but whitespace and comments to show.",
      "Send one complete, self-contained HTML document (<!doctype html><html>…</html>) as `html`.",
    );
    return done();
  }
  scanHtml(ctx, html, {
    script: (code, offset, kind, exact) => analyseScript(ctx, code, offset, kind, exact),
    json: (text, offset, block) => checkJsonBlock(ctx, text, offset, block),
  });
  settleDocumentRules(ctx);
  return done();
}

/** The manifest of reads, with a finding for each request whose URL it could not read to one path. */
function settleReads(ctx: Context): DraftReads {
  const { reads, unresolved } = ctx.reads.result();
  for (const u of unresolved) {
    ctx.report(
      "read-unresolved",
      u.offset,
      `\`fetch(${clip(u.text, 60)})\`: the check cannot read which API path this URL is, so it is not among the reads a viewer is asked to allow, and on a viewer's live data the broker refuses it.`,
      'Build the URL from pieces the check can follow: literals on the API base (`API + "/cx/book?owner=" + encodeURIComponent(id)`), a ternary or `&&` for an optional part (`(cursor ? "?cursor=" + encodeURIComponent(cursor) : "")`), a helper called with literal paths, or a loop over a const array of paths.',
    );
  }
  return reads;
}

/** A <script type="application/json"> block: data the dashboard parses itself. */
function checkJsonBlock(ctx: Context, text: string, offset: number, block: JsonBlock): void {
  if (block.id === SNAPSHOT_ELEMENT_ID) checkSnapshotBlock(ctx, block);
  const body = text.trim();
  if (body === "") return;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(message)?.[1];
    ctx.report(
      "js-syntax",
      offset + text.indexOf(body[0] ?? "") + (pos ? Number(pos) : 0),
      `This JSON data block is not valid JSON (${message}); JSON.parse of it throws.`,
      "Fix the JSON at this position: double-quoted keys and strings, no trailing commas, no comments.",
    );
    return;
  }
  if (ctx.facts.snapshotAt === null && (body.length >= 1024 || hasRecords(data))) ctx.facts.snapshotAt = offset;
}

/** The snapshot element: the first one is the one `dashboardSnapshot()` reads, and its time is what the page shows. */
function checkSnapshotBlock(ctx: Context, block: JsonBlock): void {
  if (ctx.facts.snapshotElementAt !== null) return;
  ctx.facts.snapshotElementAt = block.tagOffset;
  if (block.takenAt !== undefined && isSnapshotTime(block.takenAt.value)) return;
  const what = block.takenAt === undefined ? `has no \`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}\`` : `has \`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="${clipValue(block.takenAt.value)}"\`, which is not an ISO-8601 date or a date and time with Z or an offset`;
  ctx.report(
    "snapshot-undated",
    block.takenAt?.offset ?? block.tagOffset,
    `The snapshot ${what}: when the dashboard falls back to it, the page can only say "the dashboard does not say when it was taken".`,
    `Say when the data was taken: \`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="2026-11-20"\` or \`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="2026-11-20T06:00:00Z"\`.`,
  );
}

function clipValue(v: string): string {
  return v.length > 40 ? `${v.slice(0, 39)}…` : v;
}

/** An array of at least five objects anywhere in the value: rows of data. */
function hasRecords(v: unknown, depth = 0): boolean {
  if (depth > 4 || typeof v !== "object" || v === null) return false;
  if (Array.isArray(v)) {
    if (v.filter((x) => typeof x === "object" && x !== null && !Array.isArray(x)).length >= 5) return true;
    return v.some((x) => hasRecords(x, depth + 1));
  }
  return Object.values(v).some((x) => hasRecords(x, depth + 1));
}

/** Rules that need the whole document: a read somewhere, and its handling anywhere else. */
function settleDocumentRules(ctx: Context): void {
  const f = ctx.facts;

  if (f.requests) {
    for (const r of f.uncheckedReads) {
      ctx.report(
        "unchecked-fetch",
        r.offset,
        r.message,
        "Check first: `if (!res.ok) { const e = await res.json().catch(() => ({})); showError(e.error, e.hint); return; }`. Errors are JSON {error, hint}; show them, and render 401 as \"sign in\", not as an empty dashboard.",
      );
    }
  }

  const cxAt = f.cxReads[0];
  if (cxAt !== undefined && f.names.has("data") && !f.names.has("waitingOn")) {
    ctx.report(
      "cx-waiting-unhandled",
      cxAt,
      "This dashboard reads /cx/ answers but never handles {ok: false, waitingOn}: a deployment still waiting on its first sync answers 200 with no `data`, and the dashboard must show the `waitingOn` text, not zeroes.",
      "Branch on `ok`: `const body = await res.json(); if (!body.ok) { showNotice(body.waitingOn); return; } render(body.data);`.",
    );
  }

  if (!f.derivedLabel) {
    for (const at of f.activityUses) {
      ctx.report(
        "activity-basis-unlabelled",
        at,
        "This requests the book with basis=activity, a stand-in that groups companies by who logged a touch, but no visible text labels the figures as derived.",
        "Show a visible label next to the book, e.g. \"Derived from activity: owners inferred from logged touches, not the CRM assignment\", or use basis=real (the default).",
      );
    }
  }

  const priorityAt = f.priorityNumberReads[0];
  if (priorityAt !== undefined && !f.names.has("reasons")) {
    ctx.report(
      "priority-misrepresented",
      priorityAt,
      "This shows `priority.score` or `priority.percentile` but never `priority.reasons`; without its reasons the rank reads as a grade.",
      "Show `priority.reasons` (the list of why a school ranks where it does) beside the rank, and label it a triage rank, not a score, target or SLA.",
    );
  }

  if (!f.names.has("nextCursor")) {
    const reported = new Set<string>();
    for (const r of f.pagedReads) {
      if (reported.has(r.path)) continue;
      reported.add(r.path);
      const list = r.path.split("/").pop() ?? "items";
      const crm = r.path.startsWith("/crm/");
      const first = crm ? `${r.path.replace(":instance", "customers")}?limit=200` : `${r.path}?`;
      const sep = crm ? "&" : "";
      ctx.report(
        "paging-ignored",
        r.offset,
        `${r.path} answers one page at a time${crm ? " (50 by default, 200 at most)" : ""} but the dashboard never reads \`nextCursor\`, so it shows only the first page.`,
        `Follow \`nextCursor\` until it is null: \`let cursor = null; do { const res = await fetch(API + "${first}" + (cursor ? "${sep}cursor=" + encodeURIComponent(cursor) : "")); if (!res.ok) break; const page = await res.json(); rows.push(...page.${list}); cursor = page.nextCursor; } while (cursor);\``,
      );
    }
  }

  if (f.snapshotHelperAt !== null && f.snapshotElementAt === null) {
    ctx.report(
      "snapshot-helper-without-snapshot",
      f.snapshotHelperAt,
      `This calls window.${SNAPSHOT_HELPER}() but the document has no snapshot element, so it always answers null.`,
      `Embed the data it should fall back to: \`<script type="application/json" id="${SNAPSHOT_ELEMENT_ID}" ${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="2026-11-20">{…}</script>\`, or drop the fallback and show the failure.`,
    );
  }

  if (f.snapshotElementAt !== null && f.snapshotHelperAt === null && f.requests) {
    ctx.report(
      "snapshot-unannounced",
      f.snapshotElementAt,
      `This dashboard fetches live data and embeds a snapshot, but never calls window.${SNAPSHOT_HELPER}(): when it shows the snapshot, the page around it cannot tell the viewer the figures are not live, or from when.`,
      `Read the snapshot through the helper where a read fails: \`const snap = window.${SNAPSHOT_HELPER}("Districts")\` (the panel's name; none for the whole dashboard) answers {data, takenAt} and makes the page say "Showing snapshot data from <time> in Districts".`,
    );
  }

  if (f.snapshotAt !== null && !f.requests && !f.names.has("DASHBOARD_API_BASE")) {
    ctx.report(
      "snapshot-without-live",
      f.snapshotAt,
      "This dashboard embeds its own data and never fetches from the API base: it is valid, but it shows a frozen snapshot.",
      'To keep it current, fetch from the API base (`const API = window.DASHBOARD_API_BASE || "/api"; fetch(API + "/cx/owners")`) and keep the embedded data as a fallback.',
    );
  }
}

/**
 * The `DASHBOARD_PARAMS` names a document reads, for the page's parameter bar. A document that
 * never names the global is not checked at all: the bar costs nothing on most dashboards.
 */
export function paramReadsOf(html: string): string[] {
  if (!html.includes("DASHBOARD_PARAMS")) return [];
  try {
    return analyseDraft(html).params;
  } catch {
    return [];
  }
}

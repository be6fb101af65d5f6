import type { DraftWarning } from "@/lib/contract/resources";
import { ReadsCollector } from "./resolve";
import { severityOf, type RuleId } from "./rules";

// State shared by the HTML, CSS and JavaScript passes over one document: the findings so far
// and the facts that only the whole document can settle (is nextCursor ever read? is there a
// "derived" label anywhere?).

/** Findings beyond this many per rule add nothing an author can act on; they only bloat the answer. */
export const MAX_FINDINGS_PER_RULE = 25;

interface Finding {
  rule: RuleId;
  offset: number;
  message: string;
  hint: string;
}

interface DocFacts {
  /** Any fetch, XMLHttpRequest, Request, EventSource or library request. */
  requests: boolean;
  /** Names read, destructured, used as keys or as strings anywhere in code: see TRACKED_NAMES. */
  names: Set<string>;
  /** Visible text (or a string in code) that says "derived". */
  derivedLabel: boolean;
  cxReads: number[];
  activityUses: number[];
  priorityNumberReads: number[];
  pagedReads: { path: string; offset: number }[];
  snapshotAt: number | null;
  /** The snapshot element (`<script type="application/json" id="dashboard-snapshot">`), where its tag starts. */
  snapshotElementAt: number | null;
  /** The first use of `dashboardSnapshot` in code. */
  snapshotHelperAt: number | null;
  /** Response bodies read with no status check beside them; reported only if the document makes requests. */
  uncheckedReads: { offset: number; message: string }[];
}

export const TRACKED_NAMES = new Set(["nextCursor", "waitingOn", "reasons", "data", "DASHBOARD_API_BASE"]);

export class Context {
  readonly html: string;
  readonly facts: DocFacts = {
    requests: false,
    names: new Set(),
    derivedLabel: false,
    cxReads: [],
    activityUses: [],
    priorityNumberReads: [],
    pagedReads: [],
    snapshotAt: null,
    snapshotElementAt: null,
    snapshotHelperAt: null,
    uncheckedReads: [],
  };
  /** The API paths the document's code names: its manifest of reads. */
  readonly reads = new ReadsCollector();
  /** The `DASHBOARD_PARAMS` names the document's code reads, in the order first met. */
  readonly params = new Set<string>();
  private readonly findings: Finding[] = [];
  private readonly perRule = new Map<RuleId, number>();
  private readonly seen = new Set<string>();
  private attempts = 0;

  constructor(html: string) {
    this.html = html;
  }

  report(rule: RuleId, offset: number, message: string, hint: string): void {
    this.attempts++;
    const n = this.perRule.get(rule) ?? 0;
    if (n >= MAX_FINDINGS_PER_RULE) return;
    // One finding per rule and place: a URL can be seen by more than one pass.
    const key = `${rule}@${offset}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.perRule.set(rule, n + 1);
    this.findings.push({ rule, offset, message, hint });
  }

  /**
   * Changes whenever a pass reports something or records a fact with a position; a pass that
   * leaves it unchanged found nothing that depends on where its code is.
   */
  footprint(): number {
    const f = this.facts;
    return (
      this.attempts +
      f.cxReads.length +
      f.activityUses.length +
      f.priorityNumberReads.length +
      f.pagedReads.length +
      f.uncheckedReads.length +
      (f.snapshotAt === null ? 0 : 1) +
      (f.snapshotHelperAt === null ? 0 : 1)
    );
  }

  warnings(): DraftWarning[] {
    if (this.findings.length === 0) return [];
    const lines = new LineIndex(this.html);
    return this.findings
      .map((f) => {
        const { line, column } = lines.locate(f.offset);
        return { rule: f.rule, severity: severityOf(f.rule), message: f.message, line, column, hint: f.hint };
      })
      .sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
  }
}

/** Offsets to 1-based line and column. A line ends at \n, \r\n or a lone \r, as editors count. */
export class LineIndex {
  private readonly starts: number[] = [0];
  private readonly length: number;

  constructor(text: string) {
    this.length = text.length;
    if (text.includes("\r")) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) this.starts.push(i + 1);
        else if (c === 13) {
          if (text.charCodeAt(i + 1) === 10) i++;
          this.starts.push(i + 1);
        }
      }
    } else {
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
    }
  }

  locate(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - (this.starts[lo] ?? 0) + 1 };
  }
}

/** Shortens a value quoted in a message. */
export function clip(s: string, max = 80): string {
  const flat = s.replace(/\u0000/g, "…").replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

import type { ConsoleLevel, ConsoleNotice, ErrorNotice } from "@/lib/frame/protocol";

// The editor's console: every console line and uncaught error of the dashboard now in the
// preview, in order, a repeat of the line before counted rather than listed again.

export interface ConsoleEntry {
  level: ConsoleLevel;
  message: string;
  /** An uncaught error or rejection (not a console call): where in the source, when known. */
  uncaught: boolean;
  line: number | null;
  column: number | null;
  count: number;
}

export interface ConsoleLog {
  /** The document the log is of: a new one starts a new log. */
  html: string;
  entries: ConsoleEntry[];
  /** Entries let go from the start of the log to keep it within its bound. */
  dropped: number;
}

/** The entries one log keeps; older ones go first. */
export const CONSOLE_ENTRIES_MAX = 500;

export const emptyLog = (html: string): ConsoleLog => ({ html, entries: [], dropped: 0 });

function entryOf(notice: ErrorNotice | ConsoleNotice): ConsoleEntry {
  return notice.type === "error"
    ? { level: "error", message: notice.message, uncaught: true, line: notice.line, column: notice.column, count: 1 }
    : { level: notice.level, message: notice.message, uncaught: false, line: null, column: null, count: 1 };
}

/** The log of `html` with `notice` added (a log of another document starts over). */
export function logged(log: ConsoleLog, html: string, notice: ErrorNotice | ConsoleNotice): ConsoleLog {
  const cur = log.html === html ? log : emptyLog(html);
  const next = entryOf(notice);
  const last = cur.entries.at(-1);
  if (last && last.level === next.level && last.message === next.message && last.uncaught === next.uncaught && last.line === next.line && last.column === next.column) {
    return { ...cur, entries: [...cur.entries.slice(0, -1), { ...last, count: last.count + 1 }] };
  }
  const entries = [...cur.entries, next];
  const over = Math.max(0, entries.length - CONSOLE_ENTRIES_MAX);
  return { html, entries: over ? entries.slice(over) : entries, dropped: cur.dropped + over };
}

/** The console's views: every line, one level, or the requests refused. */
export type ConsoleFilter = "all" | ConsoleLevel | "refused";

/**
 * The console's one count: calls per level (a repeated line counts each time), requests refused
 * (each time), and in all. An error is an uncaught error or a console.error call.
 */
export function consoleCounts(entries: readonly ConsoleEntry[], refusals: readonly { count: number }[] = []): Record<ConsoleFilter, number> {
  const counts: Record<ConsoleFilter, number> = { all: 0, error: 0, refused: 0, warn: 0, info: 0, log: 0, debug: 0 };
  for (const e of entries) {
    counts[e.level] += e.count;
    counts.all += e.count;
  }
  for (const r of refusals) {
    counts.refused += r.count;
    counts.all += r.count;
  }
  return counts;
}

"use client";

import { useId, useState, type KeyboardEvent } from "react";
import type { RenderReportBody, RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { plural } from "@/components/ui/plural";
import { consoleCounts, type ConsoleEntry, type ConsoleFilter, type ConsoleLog } from "./console-log";
import styles from "./editor.module.css";

const times = (count: number) => (count > 1 ? ` (×${count})` : "");

type Tab = "console" | "requests";

const FILTERS: readonly { id: ConsoleFilter; label: string }[] = [
  { id: "all", label: "All" },
  { id: "error", label: "Errors" },
  { id: "refused", label: "Refused" },
  { id: "warn", label: "Warnings" },
  { id: "info", label: "Info" },
  { id: "log", label: "Logs" },
  { id: "debug", label: "Debug" },
];

interface ConsolePanelProps {
  /** The latest render report of the preview; null until a dashboard has settled. */
  report: RenderReportBody | null;
  /** The report is of an earlier version of the source: the current one is still running. */
  stale: boolean;
  /** The preview's requests, newest last, since its dashboard last started. */
  requests: readonly RequestLogEntry[];
  /** Every console line and uncaught error of the dashboard now in the preview. */
  log: ConsoleLog;
  /** Empties the log (the dashboard keeps running). */
  onClear: () => void;
  /** Moves the editor's cursor to a place in the source. */
  onJump: (line: number, column?: number) => void;
}

/**
 * What the preview's dashboard did as it ran: how its render went, every console line at every
 * level and every uncaught error (each with a button to its line in the source), the reads the
 * broker refused; and every request it made. Everything shown is the dashboard's own text, shown
 * as text.
 *
 * Every number of the panel is one count (consoleCounts): an error is an uncaught error or a
 * console.error call, each time it happens, and a refused request each time it is refused, so the
 * tab's count is the Errors filter's plus the Refused one, a line repeated three times reads
 * (×3) and counts three, and the summary says the same numbers in words.
 */
export function ConsolePanel({ report, stale, requests, log, onClear, onJump }: ConsolePanelProps) {
  const [tab, setTab] = useState<Tab>("console");
  const [filter, setFilter] = useState<ConsoleFilter>("all");
  // On a phone the console is a bar until it has something to say or is asked for, so the
  // preview keeps the screen (wider, the dock always shows it).
  const [expanded, setExpanded] = useState<boolean | null>(null);
  const id = useId();
  const refusals = report && !stale ? report.refusals : [];
  const counts = consoleCounts(log.entries, refusals);
  const problems = counts.error + counts.refused;
  const open = expanded ?? problems > 0;
  const order: Tab[] = ["console", "requests"];
  const shown = filter === "all" ? log.entries : log.entries.filter((e) => e.level === filter);
  const refusalsShown = filter === "all" || filter === "refused" ? refusals : [];

  // Arrow keys move between tabs, as the ARIA tabs pattern expects.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    e.preventDefault();
    const next = order[(order.indexOf(tab) + (e.key === "ArrowRight" ? 1 : order.length - 1)) % order.length] ?? "console";
    setTab(next);
    document.getElementById(`${id}-${next}-tab`)?.focus();
  };

  const tabProps = (t: Tab) => ({
    role: "tab",
    type: "button" as const,
    id: `${id}-${t}-tab`,
    "aria-selected": tab === t,
    "aria-controls": `${id}-${t}`,
    tabIndex: tab === t ? 0 : -1,
    onClick: () => {
      setTab(t);
      setExpanded(true);
    },
  });

  return (
    <section className={styles.console} aria-label="Console" data-testid="console" data-collapsed={open ? undefined : ""}>
      <div className={styles.consoleHead}>
        <div role="tablist" aria-label="Console views" className={styles.tabs} onKeyDown={onKeyDown}>
          <button {...tabProps("console")}>
            Console
            {problems > 0 ? (
              <span className={styles.badge} data-testid="console-count">
                {" "}
                {problems}
                <span className={styles.visuallyHidden}> {problems === 1 ? "problem" : "problems"}</span>
              </span>
            ) : null}
          </button>
          <button {...tabProps("requests")}>Requests ({requests.length})</button>
        </div>
        <button type="button" className={styles.consoleToggle} aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setExpanded(!open)} data-testid="console-toggle">
          {open ? "Hide console" : "Show console"}
        </button>
      </div>
      <div id={`${id}-body`} className={styles.consoleBody}>
      {tab === "console" ? (
        <div role="tabpanel" id={`${id}-console`} aria-labelledby={`${id}-console-tab`} className={styles.tabPanel} tabIndex={0}>
          {/* The previous version's report stays while the current one runs, so typing does not
              make the line blink; it says so. */}
          {report ? (
            <p className={`${styles.summary} ${stale ? styles.stale : ""}`} data-testid="render-report">
              Render: {consoleSummary(counts, requests.length, report.settled)}
              {stale ? <span className="muted"> (the previous version; the current one is still running)</span> : null}
            </p>
          ) : (
            <p className="muted">The dashboard is still running; how its render went appears once it settles.</p>
          )}
          <div role="toolbar" aria-label="Console filters" className={styles.consoleBar}>
            {FILTERS.map((f) => (
              <button
                key={f.id}
                type="button"
                aria-pressed={filter === f.id}
                className={styles.filter}
                onClick={() => setFilter(f.id)}
                data-testid={`console-filter-${f.id}`}
              >
                {f.label} {counts[f.id]}
              </button>
            ))}
            <button type="button" className={styles.filter} onClick={onClear} disabled={log.entries.length === 0 && log.dropped === 0}>
              Clear
            </button>
          </div>
          {log.dropped > 0 ? <p className="muted">{log.dropped} earlier lines left out.</p> : null}
          {filter === "refused" ? null : shown.length === 0 ? (
            <p className="muted" data-testid="console-empty">
              {log.entries.length === 0 ? "Nothing logged." : "Nothing at this level."}
            </p>
          ) : (
            <ol className={styles.entries} aria-label="Console messages" data-testid="console-log">
              {shown.map((e, i) => (
                <ConsoleLine key={i} entry={e} onJump={onJump} />
              ))}
            </ol>
          )}
          {filter === "refused" && refusalsShown.length === 0 ? (
            <p className="muted" data-testid="console-empty">
              Nothing refused.
            </p>
          ) : null}
          {refusalsShown.length > 0 ? <RefusalList refusals={refusalsShown} /> : null}
        </div>
      ) : (
        <div role="tabpanel" id={`${id}-requests`} aria-labelledby={`${id}-requests-tab`} className={styles.tabPanel} tabIndex={0}>
          <RequestTable requests={requests} />
        </div>
      )}
      </div>
    </section>
  );
}

/** The requests tab: each request of the dashboard now in the preview, and how it was answered. */
function RequestTable({ requests }: { requests: ConsolePanelProps["requests"] }) {
  return requests.length === 0 ? (
    <p className="muted">No requests yet.</p>
  ) : (
    <table className={styles.requests}>
      <thead>
        <tr>
          <th scope="col">Method</th>
          <th scope="col">Path</th>
          <th scope="col">Status</th>
          <th scope="col">Time</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((r, i) => (
          <tr key={i} data-testid="console-request" className={r.refused || r.status >= 400 ? styles.failed : undefined}>
            <td>{r.method}</td>
            <td className={styles.path}>{r.path}</td>
            <td>{r.refused ? `refused: ${r.refused.error}` : r.status}</td>
            <td>{Math.round(r.ms)} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The requests the broker or the frame refused, from the preview's render report. */
function RefusalList({ refusals }: { refusals: NonNullable<ConsolePanelProps["report"]>["refusals"] }) {
  return (
    <ul className={styles.entries} aria-label="Refused requests">
      {refusals.map((f, i) => (
        <li key={`r${i}`} className={styles.error} data-testid="render-refusal">
          <code>
            {f.method ?? ""} {f.path}
          </code>{" "}
          refused, {f.error}: {f.reason}
          {times(f.count)}
        </li>
      ))}
    </ul>
  );
}

/** The summary line in the panel's own counts: "3 errors · 1 refused request · 5 requests". */
function consoleSummary(counts: Record<ConsoleFilter, number>, requests: number, settled: boolean): string {
  const parts = [counts.error === 0 ? "no errors" : plural(counts.error, "error")];
  if (counts.refused > 0) parts.push(plural(counts.refused, "refused request"));
  parts.push(plural(requests, "request"));
  if (!settled) parts.push("still loading when reported");
  return parts.join(" · ");
}

const LEVEL_CLASS: Record<ConsoleEntry["level"], string | undefined> = {
  error: styles.error,
  warn: styles.warning,
  info: styles.info,
  log: undefined,
  debug: styles.debug,
};

function ConsoleLine({ entry: e, onJump }: { entry: ConsoleEntry; onJump: ConsolePanelProps["onJump"] }) {
  return (
    <li className={LEVEL_CLASS[e.level]} data-testid={e.uncaught ? "render-error" : "console-entry"} data-level={e.level}>
      {e.uncaught ? (
        e.line === null ? (
          <code>line unknown</code>
        ) : (
          <button type="button" className={styles.where} onClick={() => onJump(e.line ?? 1, e.column ?? 1)} data-testid="console-error-line">
            line {e.line}:{e.column ?? 1}
          </button>
        )
      ) : (
        <code className={styles.level}>{e.level}</code>
      )}{" "}
      {e.message}
      {times(e.count)}
    </li>
  );
}

"use client";

import { useId, useState, type KeyboardEvent } from "react";
import type { ConsoleNotice, ErrorNotice, RenderReportBody, RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { renderSummary } from "@/components/dashboard-frame/RenderReportView";
import styles from "./editor.module.css";

const times = (count: number) => (count > 1 ? ` (×${count})` : "");

type Tab = "console" | "requests";

export interface ConsolePanelProps {
  /** The latest render report of the preview; null until a dashboard has settled. */
  report: RenderReportBody | null;
  /** The report is of an earlier version of the source: the current one is still running. */
  stale: boolean;
  /** The preview's requests, newest last, since its dashboard last started. */
  requests: readonly RequestLogEntry[];
  /** Errors and console.error lines of the current dashboard since its report, oldest first. */
  later?: readonly (ErrorNotice | ConsoleNotice)[];
  /** Moves the editor's cursor to a place in the source. */
  onJump: (line: number, column?: number) => void;
}

/**
 * What the preview's dashboard did as it ran: its uncaught errors (each with a button to its line
 * in the source), console.error lines and the reads the broker refused; and every request it made.
 * Everything shown is the dashboard's own text, shown as text.
 */
export function ConsolePanel({ report, stale, requests, later = [], onJump }: ConsolePanelProps) {
  const [tab, setTab] = useState<Tab>("console");
  const id = useId();
  const problems =
    (report ? report.errors.reduce((n, e) => n + e.count, 0) + report.refusals.reduce((n, f) => n + f.count, 0) : 0) + later.filter((n) => n.type === "error").length;
  const order: Tab[] = ["console", "requests"];

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
    onClick: () => setTab(t),
  });

  return (
    <section className={styles.console} aria-label="Console" data-testid="console">
      <div role="tablist" aria-label="Console views" className={styles.tabs} onKeyDown={onKeyDown}>
        <button {...tabProps("console")}>
          Console{problems > 0 ? <span className={styles.badge}> {problems}</span> : null}
        </button>
        <button {...tabProps("requests")}>Requests ({requests.length})</button>
      </div>
      {tab === "console" ? (
        <div role="tabpanel" id={`${id}-console`} aria-labelledby={`${id}-console-tab`} className={styles.tabPanel} tabIndex={0}>
          {/* The previous version's report stays while the current one runs, so typing does not
              make the list blink; it says so, since its lines may have moved. */}
          {report && stale ? <p className="muted">From the previous version; the current one is still running.</p> : null}
          {report ? (
            <div className={stale ? styles.stale : undefined}>
              <ConsoleEntries report={report} onJump={onJump} />
            </div>
          ) : (
            <p className="muted">The dashboard is still running; its errors appear once it settles.</p>
          )}
          {report && !stale && later.length > 0 ? (
            <>
              <p className={styles.summary}>Since it settled</p>
              <ul className={styles.entries} aria-label="Since it settled">
                {later.map((n, i) =>
                  n.type === "error" ? (
                    <li key={i} className={styles.error} data-testid="later-error">
                      {n.line === null ? (
                        <code>line unknown</code>
                      ) : (
                        <button type="button" className={styles.where} onClick={() => onJump(n.line ?? 1, n.column ?? 1)}>
                          line {n.line}:{n.column ?? 1}
                        </button>
                      )}{" "}
                      {n.message}
                    </li>
                  ) : (
                    <li key={i} className={styles.warning}>
                      <code>console.error</code> {n.message}
                    </li>
                  ),
                )}
              </ul>
            </>
          ) : null}
        </div>
      ) : (
        <div role="tabpanel" id={`${id}-requests`} aria-labelledby={`${id}-requests-tab`} className={styles.tabPanel} tabIndex={0}>
          {requests.length === 0 ? (
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
          )}
        </div>
      )}
    </section>
  );
}

function ConsoleEntries({ report, onJump }: { report: RenderReportBody; onJump: ConsolePanelProps["onJump"] }) {
  const empty = report.errors.length === 0 && report.console.length === 0 && report.refusals.length === 0;
  return (
    <>
      <p className={styles.summary} data-testid="render-report">
        Render: {renderSummary(report)}
      </p>
      {empty ? null : (
        <ul className={styles.entries}>
          {report.errors.map((e, i) => (
            <li key={`e${i}`} className={styles.error} data-testid="render-error">
              {e.line === null ? (
                <code>line unknown</code>
              ) : (
                <button type="button" className={styles.where} onClick={() => onJump(e.line ?? 1, e.column ?? 1)} data-testid="console-error-line">
                  line {e.line}:{e.column ?? 1}
                </button>
              )}{" "}
              {e.message}
              {times(e.count)}
            </li>
          ))}
          {report.console.map((c, i) => (
            <li key={`c${i}`} className={styles.warning}>
              <code>console.error</code> {c.message}
              {times(c.count)}
            </li>
          ))}
          {report.refusals.map((f, i) => (
            <li key={`r${i}`} className={styles.error} data-testid="render-refusal">
              <code>
                {f.method ?? ""} {f.path}
              </code>{" "}
              refused, {f.error}: {f.reason}
              {times(f.count)}
            </li>
          ))}
        </ul>
      )}
      {report.dropped > 0 ? <p className="muted">{report.dropped} more entries left out.</p> : null}
    </>
  );
}

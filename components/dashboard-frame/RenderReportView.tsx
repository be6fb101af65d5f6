"use client";

import { plural } from "@/components/ui/plural";
import type { RenderReportBody } from "./render-report";
import styles from "./RenderReportView.module.css";

const times = (count: number) => (count > 1 ? ` (×${count})` : "");

/** One line saying how the render went, for the summary. */
function renderSummary(r: RenderReportBody): string {
  const parts = [r.errors.length === 0 ? "no errors" : plural(r.errors.reduce((n, e) => n + e.count, 0), "error")];
  if (r.console.length > 0) parts.push(plural(r.console.reduce((n, c) => n + c.count, 0), "console error"));
  if (r.refusals.length > 0) parts.push(plural(r.refusals.reduce((n, f) => n + f.count, 0), "refused request"));
  parts.push(plural(r.requests.length, "request"));
  if (!r.settled) parts.push("still loading when reported");
  return parts.join(" · ");
}

/**
 * What happened as the dashboard rendered: its errors with their place in the HTML, its
 * console.error lines and the requests it was refused. Everything here is the dashboard's own
 * text, shown as text.
 */
export function RenderReportView({ report, note }: { report: RenderReportBody | null; note?: string }) {
  if (!report) return null;
  const bad = report.errors.length > 0 || report.refusals.length > 0;
  return (
    <details className={styles.report} data-testid="render-report" data-errors={report.errors.length} data-refusals={report.refusals.length}>
      <summary className={bad ? styles.bad : undefined}>Render: {renderSummary(report)}</summary>
      {note ? <p className="muted">{note}</p> : null}
      {report.errors.length > 0 ? (
        <ul aria-label="Errors">
          {report.errors.map((e, i) => (
            <li key={i} data-testid="render-error">
              <code>{e.line === null ? "line unknown" : `line ${e.line}:${e.column ?? 1}`}</code> {e.message}
              {times(e.count)}
            </li>
          ))}
        </ul>
      ) : null}
      {report.console.length > 0 ? (
        <ul aria-label="console.error">
          {report.console.map((c, i) => (
            <li key={i}>
              <code>console.error</code> {c.message}
              {times(c.count)}
            </li>
          ))}
        </ul>
      ) : null}
      {report.refusals.length > 0 ? (
        <ul aria-label="Refused requests">
          {report.refusals.map((f, i) => (
            <li key={i} data-testid="render-refusal">
              <code>
                {f.method ?? ""} {f.path}
              </code>{" "}
              {f.error}: {f.reason}
              {times(f.count)}
            </li>
          ))}
        </ul>
      ) : null}
      {report.dropped > 0 ? <p className="muted">{plural(report.dropped, "more entry", "more entries")} left out.</p> : null}
    </details>
  );
}

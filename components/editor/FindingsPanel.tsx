"use client";

import { plural } from "@/components/ui/plural";
import type { Findings } from "./useFindings";
import styles from "./editor.module.css";

interface FindingsPanelProps extends Findings {
  /** Moves the editor's cursor to a finding's place in the source. */
  onJump: (line: number, column: number) => void;
}

/** The static check's findings, counted by severity, each with a button to where it is and a hint. */
export function FindingsPanel({ check, warnings, onJump }: FindingsPanelProps) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const w of warnings) counts[w.severity]++;

  return (
    <section aria-labelledby="warnings-title" className={styles.warnings} aria-busy={check.kind === "loading"}>
      <h2 id="warnings-title">
        Check{" "}
        <span className="muted">
          ({plural(counts.error, "error")}, {plural(counts.warning, "warning")}, {plural(counts.info, "note")})
        </span>
      </h2>
      {check.kind === "loading" ? (
        <p className="muted">Checking…</p>
      ) : check.kind === "failed" ? (
        <p className="error-text">The check could not be loaded; reload the page to try again.</p>
      ) : warnings.length === 0 ? (
        <p className="muted" data-testid="no-warnings">
          No findings.
        </p>
      ) : (
        // Scrolls when long, so it takes focus to be scrollable from the keyboard.
        <ul data-testid="warnings" tabIndex={0} aria-labelledby="warnings-title">
          {warnings.map((w, i) => (
            <li key={`${w.rule}-${w.line}-${w.column}-${i}`} className={styles[w.severity]} data-testid="warning" data-rule={w.rule}>
              <button type="button" className={styles.where} onClick={() => onJump(w.line, w.column)} data-testid="warning-line">
                line {w.line}:{w.column}
              </button>{" "}
              <strong>{w.severity}</strong> <code>{w.rule}</code> {w.message}
              {/* Two lines of the hint until the finding is pointed at or focused: three findings
                  fit the dock whole; the full text is always there for assistive technology. */}
              <span className={`muted ${styles.hint}`}>Hint: {w.hint}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

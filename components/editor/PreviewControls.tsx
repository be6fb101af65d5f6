"use client";

import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import type { PreviewData } from "./usePreviewData";
import styles from "./editor.module.css";

export type View = "single" | "matrix";

export interface PreviewControlsProps {
  view: View;
  onView: (view: View) => void;
  data: PreviewData;
  /** Once shared, the draft's data mode is fixed. */
  shared: boolean;
}

/** The preview's settings: one frame or the state matrix, and the data it runs against. */
export function PreviewControls({ view, onView, data, shared }: PreviewControlsProps) {
  const { mode, setMode, live, scenarios, scenariosFailed, scenario, setScenario, variants, setVariant, examples } = data;
  return (
    <form className={styles.controls} onSubmit={(e) => e.preventDefault()} aria-label="Preview settings">
      <fieldset className={styles.view}>
        <legend>Preview</legend>
        <label>
          <input type="radio" name="preview-view" value="single" checked={view === "single"} onChange={() => onView("single")} /> Single
        </label>
        <label>
          <input type="radio" name="preview-view" value="matrix" checked={view === "matrix"} onChange={() => onView("matrix")} /> State matrix
        </label>
      </fieldset>
      <label>
        Data{" "}
        <select value={mode} onChange={(e) => setMode(e.target.value as DataMode)} disabled={shared} aria-describedby={shared ? "mode-fixed" : undefined}>
          <option value="demo">Demo data</option>
          <option value="live">My live data</option>
        </select>
      </label>
      {shared ? (
        <span id="mode-fixed" className="muted">
          fixed once shared
        </span>
      ) : null}
      <label>
        Scenario{" "}
        <select value={scenario} onChange={(e) => setScenario(e.target.value)} disabled={live || !scenarios}>
          {scenarios ? (
            scenarios.scenarios.map((s) => (
              <option key={s.name} value={s.name} title={s.description}>
                {s.name}
              </option>
            ))
          ) : (
            <option value="">{scenariosFailed ? "unavailable" : "loading…"}</option>
          )}
        </select>
      </label>
      {scenarios && !live ? (
        <details className={styles.variants}>
          <summary>Per-endpoint variants ({Object.keys(examples).length} set)</summary>
          <ul>
            {scenarios.paths.map((p) => (
              <li key={p.path}>
                <label>
                  <code>{p.path}</code>{" "}
                  <select value={variants[p.path] ?? ""} onChange={(e) => setVariant(p.path, e.target.value)}>
                    <option value="">from scenario</option>
                    {p.variants.map((v) => (
                      <option key={v} value={v}>
                        {v}
                      </option>
                    ))}
                  </select>
                </label>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {scenariosFailed ? <p className="error-text">The demo scenarios could not be loaded.</p> : null}
    </form>
  );
}

"use client";

import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import type { PreviewData } from "./usePreviewData";
import styles from "./editor.module.css";

export type View = "single" | "matrix";

/** Above the preview pane: one frame or the state matrix in its place. */
export function ViewSwitch({ view, onView }: { view: View; onView: (view: View) => void }) {
  return (
    <fieldset className={styles.view}>
      <legend className={styles.visuallyHidden}>Preview</legend>
      <label>
        <input type="radio" name="preview-view" value="single" checked={view === "single"} onChange={() => onView("single")} />
        <span>Single</span>
      </label>
      <label>
        <input type="radio" name="preview-view" value="matrix" checked={view === "matrix"} onChange={() => onView("matrix")} />
        <span>State matrix</span>
      </label>
    </fieldset>
  );
}

interface PreviewControlsProps {
  data: PreviewData;
  /** Once shared, the draft's data mode is fixed. */
  shared: boolean;
}

/** The preview's data in the toolbar: demo or live, and the demo's scenario. */
export function PreviewControls({ data, shared }: PreviewControlsProps) {
  const { mode, setMode, live, scenarios, scenariosFailed, scenario, setScenario } = data;
  return (
    <form className={styles.controls} onSubmit={(e) => e.preventDefault()} aria-label="Preview settings">
      <label className={styles.field}>
        <span>Data</span>
        <select value={mode} onChange={(e) => setMode(e.target.value as DataMode)} disabled={shared} aria-describedby={shared ? "mode-fixed" : undefined}>
          <option value="demo">Demo data</option>
          <option value="live">My live data</option>
        </select>
        {shared ? (
          <span id="mode-fixed" className={styles.visuallyHidden}>
            fixed once shared
          </span>
        ) : null}
      </label>
      <label className={styles.field}>
        <span>Scenario</span>
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
    </form>
  );
}

/** The demo's answer per endpoint, each from the scenario or a named variant; in the drawer. */
export function VariantsPanel({ data }: { data: PreviewData }) {
  const { live, scenarios, scenariosFailed, variants, setVariant, examples } = data;
  return (
    <section aria-labelledby="variants-title" className={styles.variants}>
      <h2 id="variants-title">
        Per-endpoint variants <span className="muted">({Object.keys(examples).length} set)</span>
      </h2>
      {scenariosFailed ? (
        <p className="error-text">The demo scenarios could not be loaded.</p>
      ) : live ? (
        <p className="muted">Variants shape demo data; the preview now reads your live data.</p>
      ) : !scenarios ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul>
          {scenarios.paths.map((p) => (
            <li key={p.path}>
              <label>
                <code>{p.path}</code>
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
      )}
    </section>
  );
}

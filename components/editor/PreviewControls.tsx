"use client";

import { useId } from "react";
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
  className?: string;
}

/** The preview's data in the toolbar: demo or live, and the demo's scenario. */
export function PreviewControls({ data, shared, className }: PreviewControlsProps) {
  const { mode, setMode, live, scenarios, scenariosFailed, scenario, setScenario } = data;
  // Drawn twice (the toolbar's row, and the drawer on a phone): each copy's note has its own id.
  const fixedId = `${useId()}-mode-fixed`;
  return (
    <form className={`${styles.controls} ${className ?? ""}`} onSubmit={(e) => e.preventDefault()} aria-label="Preview settings">
      <label className={styles.field}>
        <span>Data</span>
        <select value={mode} onChange={(e) => setMode(e.target.value as DataMode)} disabled={shared} aria-describedby={shared ? fixedId : undefined}>
          <option value="demo">Demo data</option>
          <option value="live">My live data</option>
        </select>
        {shared ? (
          <span id={fixedId} className={styles.visuallyHidden}>
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

/**
 * Beside the preview: the demo state it runs under, always in sight, so a red preview is never a
 * mystery while the drawer is closed. Each variant chip takes its variant off.
 */
export function ActiveState({ data }: { data: PreviewData }) {
  const { live, scenario, examples, setVariant } = data;
  if (live) return null;
  const set = Object.entries(examples);
  return (
    <ul className={styles.chips} aria-label="Demo state" data-testid="active-state">
      <li className={styles.chip} data-testid="active-scenario">
        Scenario <strong>{scenario || "default"}</strong>
      </li>
      {set.map(([path, variant]) => (
        <li key={path} className={`${styles.chip} ${styles.chipSet}`} data-testid="active-variant">
          <code>{path}</code> <strong>{variant}</strong>
          <button type="button" className={styles.chipClear} onClick={() => setVariant(path, "")} aria-label={`Back to the scenario for ${path}`}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The demo's answer per endpoint, each from the scenario or a named variant; in the drawer. The
 * paths this draft reads come first, the rest after them.
 */
export function VariantsPanel({ data, reads }: { data: PreviewData; reads: readonly string[] | null }) {
  const { live, scenarios, scenariosFailed, variants, setVariant, examples } = data;
  const read = new Set(reads ?? []);
  const paths = scenarios ? [...scenarios.paths.filter((p) => read.has(p.path)), ...scenarios.paths.filter((p) => !read.has(p.path))] : [];
  const firstOther = paths.findIndex((p) => !read.has(p.path));
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
          {paths.map((p, i) => (
            <li key={p.path} data-testid="variant-path" data-read={read.has(p.path) ? "" : undefined}>
              {i === 0 && read.size > 0 ? <h3 className={styles.variantsGroup}>Read by this draft</h3> : null}
              {i === firstOther && read.size > 0 ? <h3 className={styles.variantsGroup}>Other endpoints</h3> : null}
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

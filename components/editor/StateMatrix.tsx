"use client";

import { useEffect, useRef, useState } from "react";
import { DashboardFrame } from "@/components/dashboard-frame/DashboardFrame";
import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { MATRIX_STATES, type MatrixState } from "./matrix-states";
import styles from "./editor.module.css";

/** Cells start this far below the viewport, so scrolling finds them already loaded. */
const PRELOAD_MARGIN = "200px";

/**
 * The same dashboard under several demo scenarios at once, each cell its own sandboxed frame
 * with its own broker. Cells render once first scrolled near, then stay, so scrolling back and
 * forth does not restart them.
 */
export function StateMatrix({ html }: { html: string }) {
  return (
    <section aria-labelledby="matrix-title" className={styles.matrix} data-testid="state-matrix">
      <h2 id="matrix-title">Every state at once</h2>
      <p className="muted">Demo data, each cell one scenario; per-endpoint variants apply to the single preview only.</p>
      <ul className={styles.cells}>
        {MATRIX_STATES.map((state) => (
          <MatrixCell key={state.id} state={state} html={html} />
        ))}
      </ul>
    </section>
  );
}

function MatrixCell({ state, html }: { state: MatrixState; html: string }) {
  const ref = useRef<HTMLLIElement>(null);
  const [seen, setSeen] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    }, { rootMargin: PRELOAD_MARGIN });
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen]);

  return (
    <li ref={ref} className={styles.cell} data-testid="matrix-cell" data-state={state.id}>
      <p className={styles.cellLabel}>
        <strong>{state.label}</strong> <span className="muted">scenario {state.scenario}</span>
      </p>
      {seen ? (
        <DashboardFrame html={html} apiBase={PLAYGROUND_API_BASE} mode="demo" scenario={state.scenario} title={`Preview: ${state.label}`} compact standby={false} />
      ) : (
        <div className={styles.cellPlaceholder}>Loads when scrolled into view.</div>
      )}
    </li>
  );
}

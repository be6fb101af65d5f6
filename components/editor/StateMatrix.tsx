"use client";

import { useEffect, useRef, useState } from "react";
import { DashboardFrame } from "@/components/dashboard-frame/DashboardFrame";
import { MATRIX_STATES, type MatrixState } from "./matrix-states";
import styles from "./editor.module.css";

/** Cells start this far below the view, so scrolling finds them already loaded. */
const PRELOAD_MARGIN = "200px";
/**
 * Each cell renders the dashboard at a desktop window's size and shows it scaled down, so a cell
 * shows the whole dashboard as a viewer on a laptop sees it, not a narrow column's reflow.
 */
const CELL_WIDTH = 1280;
const CELL_HEIGHT = 800;

/**
 * The same dashboard under several demo scenarios at once, each cell its own sandboxed frame
 * with its own broker. Cells render once first scrolled near, then stay, so scrolling back and
 * forth does not restart them.
 */
export function StateMatrix({ html }: { html: string }) {
  return (
    // Scrolls inside the pane, so it takes focus to be scrollable from the keyboard.
    <section aria-labelledby="matrix-title" className={styles.matrix} data-testid="state-matrix" tabIndex={0}>
      <h2 id="matrix-title">Every state at once</h2>
      <p className="muted">Demo data, each cell one scenario at {CELL_WIDTH} × {CELL_HEIGHT}, scaled to fit; per-endpoint variants apply to the single preview only.</p>
      <ul className={styles.cells}>
        {MATRIX_STATES.map((state) => (
          <MatrixCell key={state.id} state={state} html={html} />
        ))}
      </ul>
    </section>
  );
}

/** What a cell's dashboard met under its state, marked on the cell so the states to look at stand out. */
interface Marks {
  threw: boolean;
  refused: boolean;
  snapshot: boolean;
}
const NO_MARKS: Marks = { threw: false, refused: false, snapshot: false };

function MatrixCell({ state, html }: { state: MatrixState; html: string }) {
  const ref = useRef<HTMLLIElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  const [scale, setScale] = useState(0.25);
  // Marks belong to the document that earned them: an edit starts the cell's count again.
  const [marked, setMarked] = useState<{ html: string; marks: Marks }>({ html, marks: NO_MARKS });
  const marks = marked.html === html ? marked.marks : NO_MARKS;
  const mark = (k: keyof Marks) => setMarked((cur) => (cur.html === html && cur.marks[k] ? cur : { html, marks: { ...(cur.html === html ? cur.marks : NO_MARKS), [k]: true } }));

  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen]);

  // A transform does not change layout, so the box around the scaled frame is sized by hand.
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setScale(el.clientWidth / CELL_WIDTH));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <li ref={ref} className={styles.cell} data-testid="matrix-cell" data-state={state.id}>
      <p className={styles.cellLabel}>
        <strong>{state.label}</strong> <span className="muted">scenario {state.scenario}</span>
        {marks.threw ? (
          <span className={`${styles.cellMark} ${styles.cellMarkBad}`} data-testid="cell-mark" data-mark="threw">
            threw
          </span>
        ) : null}
        {marks.refused ? (
          <span className={`${styles.cellMark} ${styles.cellMarkBad}`} data-testid="cell-mark" data-mark="refused">
            refused a read
          </span>
        ) : null}
        {marks.snapshot ? (
          <span className={styles.cellMark} data-testid="cell-mark" data-mark="snapshot">
            snapshot
          </span>
        ) : null}
      </p>
      <div ref={stage} className={styles.cellStage} style={{ height: CELL_HEIGHT * scale }}>
        {seen ? (
          <div className={styles.cellScaled} style={{ width: CELL_WIDTH, transform: `scale(${scale})` }}>
            <DashboardFrame
              html={html}
              data={{ mode: "demo", scenario: state.scenario }}
              title={`Preview: ${state.label}`}
              compact
              standby={false}
              onRuntime={(n) => {
                if (n.type === "error") mark("threw");
              }}
              onRequest={(entry) => {
                if (entry.refused) mark("refused");
              }}
              onNotice={(n) => {
                if (n.type === "snapshot") mark("snapshot");
              }}
            />
          </div>
        ) : (
          <div className={styles.cellPlaceholder}>Loads when scrolled into view.</div>
        )}
      </div>
    </li>
  );
}

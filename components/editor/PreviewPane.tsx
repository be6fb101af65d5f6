"use client";

import { useEffect, useState } from "react";
import { DashboardFrame, type DashboardFrameProps } from "@/components/dashboard-frame/DashboardFrame";
import { ConsentedFrame } from "@/components/dashboard-frame/ConsentedFrame";
import type { CodeAuthor } from "@/lib/consent/live";
import type { DraftReads } from "@/lib/check/reads";
import { ActiveState, ViewSwitch, type View } from "./PreviewControls";
import { StateMatrix } from "./StateMatrix";
import type { PreviewData } from "./usePreviewData";
import styles from "./editor.module.css";

interface PreviewPaneProps {
  view: View;
  onView: (view: View) => void;
  data: PreviewData;
  /** The document the preview draws, and the key of the document it is (a new one asks afresh). */
  preview: { html: string; key: string };
  /** The document the matrix draws (it restarts several frames, so later than the preview). */
  matrixHtml: string;
  author: CodeAuthor;
  /** On live data the preview is served only the paths its code names, after the viewer agreed. */
  reads: DraftReads | null;
  signedIn: boolean;
  shared: boolean;
  /** The first dashboard has settled (usePreviewReport). */
  ready: boolean;
  frame: Omit<DashboardFrameProps, "html" | "data" | "title">;
}

/** The preview: one dashboard, on demo data or (once the viewer agreed) theirs, or the matrix of its states. */
export function PreviewPane({ view, onView, data, preview, matrixHtml, author, reads, signedIn, shared, ready, frame }: PreviewPaneProps) {
  const [previewData, setPreviewData] = useState<"live" | "demo" | "waiting">("demo");
  // The preview starts once the page has hydrated and has a moment to spare: the dashboard's own
  // work (its reads, its drawing) never stands between the page and the author's first keystroke.
  const [previewOn, setPreviewOn] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== "function") {
      const t = setTimeout(() => setPreviewOn(true), 0);
      return () => clearTimeout(t);
    }
    const id = window.requestIdleCallback(() => setPreviewOn(true), { timeout: 300 });
    return () => window.cancelIdleCallback(id);
  }, []);

  return (
    <div id="preview-pane" className={styles.previewPane} role="group" aria-label="Preview">
      <div className={styles.paneBar}>
        <ViewSwitch view={view} onView={onView} />
        <ActiveState data={data} />
      </div>
      {view === "single" ? (
        <div className={styles.previewStage} aria-busy={!ready} data-testid="preview-stage">
          {!previewOn ? null : data.live ? (
            // A new document (another example, a draft, a saved dashboard) asks afresh.
            <ConsentedFrame
              key={preview.key}
              html={preview.html}
              title="Dashboard preview"
              author={author}
              reads={reads}
              signedIn={signedIn}
              reask="inline"
              // Once shared, the draft's data is fixed: declining shows demo data here only.
              onDecline={shared ? undefined : () => data.setMode("demo")}
              demo={{ scenario: data.scenario || undefined, examples: data.examples }}
              onDataChange={setPreviewData}
              frame={frame}
            />
          ) : (
            <DashboardFrame html={preview.html} data={{ mode: "demo", scenario: data.scenario || undefined, examples: data.examples }} title="Dashboard preview" {...frame} />
          )}
          {ready || (data.live && previewData === "waiting") ? null : (
            <p className={styles.loading} role="status" data-testid="preview-loading">
              Rendering preview…
            </p>
          )}
        </div>
      ) : (
        <StateMatrix html={matrixHtml} />
      )}
    </div>
  );
}

"use client";

import type { DashboardParams } from "@/lib/frame/params";
import { useCallback, useRef } from "react";
import { DashboardFrame, type RenderReportBody } from "@/components/dashboard-frame/DashboardFrame";
import styles from "./watch.module.css";

declare global {
  interface Window {
    /** What the service's renderer reads once the page says it has rendered. */
    __dashboardRender?: { report: RenderReportBody; height: number };
  }
}

/** Checks of the frame's height, this far apart, that must agree before the picture is taken. */
const STEADY_MS = 100;
const STEADY_CHECKS = 3;
const STEADY_MAX_MS = 3_000;

/**
 * Once the dashboard has settled (its render report) and its frame has stopped growing, the
 * report is left on the window and the page marked rendered. Nothing is sent anywhere: the
 * renderer keeps the report itself.
 */
function useSettled() {
  const stage = useRef<HTMLDivElement>(null);
  const onReport = useCallback((report: RenderReportBody) => {
    const frame = () => stage.current?.querySelector<HTMLIFrameElement>('[data-testid="dashboard-frame"]') ?? null;
    let last = -1;
    let same = 0;
    const started = performance.now();
    // The frame takes its content's height from notices that may trail the report by a moment.
    const settle = () => {
      const height = frame()?.getBoundingClientRect().height ?? 0;
      same = height === last ? same + 1 : 0;
      last = height;
      if (same >= STEADY_CHECKS || performance.now() - started > STEADY_MAX_MS) {
        window.__dashboardRender = { report, height: Math.round(height) };
        document.documentElement.dataset.rendered = "true";
        return;
      }
      setTimeout(settle, STEADY_MS);
    };
    settle();
  }, []);
  return { stage, onReport };
}

/** One revision on demo data, for the service's renderer. */
export function RenderDraft({ html, scenario, examples, params, title }: { html: string; scenario: string; examples: Record<string, string>; params: DashboardParams; title: string }) {
  const { stage, onReport } = useSettled();
  return (
    <div ref={stage} className={styles.renderStage}>
      <DashboardFrame html={html} data={{ mode: "demo", scenario, examples }} title={title} fit bare standby={false} onReport={onReport} reportPage="watch" renderKey={1} params={params} />
    </div>
  );
}

/** Someone else's dashboard on a viewer's data, drawn by the service's renderer for the safe view. */
export function RenderDrawing({ html, token, title, params }: { html: string; token: string; title: string; params: DashboardParams }) {
  const { stage, onReport } = useSettled();
  return (
    <div ref={stage} className={styles.renderStage}>
      <DashboardFrame html={html} data={{ mode: "drawn", token }} title={title} fit bare standby={false} onReport={onReport} reportPage="watch" renderKey={1} params={params} />
    </div>
  );
}

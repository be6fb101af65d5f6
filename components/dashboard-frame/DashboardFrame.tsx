"use client";

import { useEffect, useRef, useState } from "react";
import { FRAME_PATH } from "@/lib/dashboards/bootstrap";
import type { InitMessage, ScrollNotice, SnapshotNotice } from "@/lib/dashboards/protocol";
import { openBroker, RequestLimiter, type BrokerConfig, type DataMode, type RequestLogEntry } from "./broker";
import styles from "./DashboardFrame.module.css";

export type { DataMode, RequestLogEntry } from "./broker";

export interface DashboardFrameProps {
  html: string;
  apiBase: string;
  mode: DataMode;
  scenario?: string;
  examples?: Record<string, string>;
  onRequest?: (entry: RequestLogEntry) => void;
  onNotice?: (notice: ScrollNotice | SnapshotNotice) => void;
  title: string;
}

/** Loads the frame did not ask for (a dashboard reloading itself) tolerated before giving up. */
const SELF_RELOADS_MAX = 3;

/**
 * Renders untrusted dashboard HTML in an opaque-origin sandboxed frame. Each change of the
 * dashboard reloads the frame's bootstrap document and hands it a new MessageChannel, so no
 * script of the previous revision survives and the old port stops answering.
 */
export function DashboardFrame(props: DashboardFrameProps) {
  const { html, apiBase, mode, scenario, examples, title } = props;
  const examplesKey = JSON.stringify(examples ?? {});
  const frameRef = useRef<HTMLIFrameElement>(null);
  const latest = useRef(props);
  const scrollY = useRef(0);
  const closeBroker = useRef<(() => void) | null>(null);
  const selfLoads = useRef(0);
  const ownReload = useRef(false);
  const firstRun = useRef(true);
  const awaitingWrite = useRef(false);
  const limiter = useRef<RequestLimiter | null>(null);
  const [halted, setHalted] = useState(false);

  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => () => closeBroker.current?.(), []);

  // A new revision, scenario or data mode: start the frame again from its bootstrap.
  useEffect(() => {
    if (firstRun.current) {
      firstRun.current = false;
      return;
    }
    const frame = frameRef.current;
    if (!frame) return;
    closeBroker.current?.();
    closeBroker.current = null;
    selfLoads.current = 0;
    ownReload.current = true;
    awaitingWrite.current = false;
    frame.src = FRAME_PATH;
  }, [html, apiBase, mode, scenario, examplesKey]);

  const onLoad = () => {
    const frame = frameRef.current;
    const target = frame?.contentWindow;
    if (!frame || !target) return;
    // The bootstrap's document.close() finishes a second load of the same document: that one
    // is the dashboard appearing, not a navigation.
    if (awaitingWrite.current) {
      awaitingWrite.current = false;
      return;
    }
    closeBroker.current?.();
    closeBroker.current = null;
    if (ownReload.current) ownReload.current = false;
    else if (++selfLoads.current > SELF_RELOADS_MAX + 1) {
      setHalted(true);
      return;
    }
    setHalted(false);
    limiter.current ??= new RequestLimiter();
    const p = latest.current;
    const channel = new MessageChannel();
    const config = (): BrokerConfig => {
      const c = latest.current;
      return { apiBase: c.apiBase, mode: c.mode, scenario: c.scenario, examples: c.examples };
    };
    closeBroker.current = openBroker(channel.port1, {
      config,
      limiter: limiter.current,
      onRequest: (entry) => latest.current.onRequest?.(entry),
      onNotice: (notice) => {
        if (notice.type === "scroll") scrollY.current = notice.y;
        latest.current.onNotice?.(notice);
      },
    });
    const init: InitMessage = { type: "init", html: p.html, apiBase: p.apiBase, scroll: scrollY.current };
    // The frame's origin is opaque, so "*" is the only target origin that reaches it; the frame
    // holds nothing but this dashboard, which is what the message carries.
    target.postMessage(init, "*", [channel.port2]);
    awaitingWrite.current = true;
  };

  return (
    <div className={styles.wrap}>
      <iframe
        ref={frameRef}
        className={styles.frame}
        src={FRAME_PATH}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        title={title}
        onLoad={onLoad}
        data-testid="dashboard-frame"
      />
      {halted ? (
        <p className={styles.halted} role="alert">
          The dashboard kept reloading itself, so it was stopped. It starts again with the next revision.
        </p>
      ) : null}
    </div>
  );
}

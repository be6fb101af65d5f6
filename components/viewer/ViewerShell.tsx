"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { useInteractive } from "@/components/interactive";
import type { Kiosk } from "./useKiosk";
import styles from "./viewer.module.css";

interface ViewerShellProps {
  kiosk: Kiosk;
  /** The page's header: title, provenance, notices. Hidden in kiosk mode. */
  header: ReactNode;
  /** The page's own actions, in the header's bar beside the updated state. Hidden in kiosk mode. */
  actions?: ReactNode;
  /** What stays on screen in kiosk mode beside the way out: whether the dashboard is current. */
  status: ReactNode;
  /** The sentence naming address parameters the dashboard was not given, if any. */
  paramsNotice?: string | null;
  /** The inputs for the dashboard's page parameters (ParamBar). Hidden in kiosk mode. */
  paramBar?: ReactNode;
  /** Below the dashboard (history, reports, request log). Hidden in kiosk mode. */
  footer?: ReactNode;
  /** The frame. */
  children: ReactNode;
  labelledBy: string;
}

/**
 * The layout every page that shows a dashboard to read (not to edit) shares: the window's whole
 * width with a slim header, or in kiosk mode the dashboard alone with a small bar to leave.
 */
export function ViewerShell({ kiosk, header, actions, status, paramsNotice, paramBar, footer, children, labelledBy }: ViewerShellProps) {
  const interactive = useInteractive();
  const exitRef = useRef<HTMLButtonElement>(null);
  const enterRef = useRef<HTMLButtonElement>(null);
  const wasKiosk = useRef(kiosk.kiosk);

  // The button pressed disappears with the mode it started; focus goes to the one that undoes it,
  // so a keyboard user is never left on the page's body.
  useEffect(() => {
    if (wasKiosk.current === kiosk.kiosk) return;
    wasKiosk.current = kiosk.kiosk;
    (kiosk.kiosk ? exitRef : enterRef).current?.focus();
  }, [kiosk.kiosk]);

  const notice = paramsNotice ? (
    <p className={styles.paramsNotice} role="note" data-testid="params-notice">
      {paramsNotice}
    </p>
  ) : null;

  return (
    <section aria-labelledby={labelledBy} className={`${styles.viewer} ${kiosk.kiosk ? styles.kiosk : ""}`} data-kiosk={kiosk.kiosk ? "true" : "false"} data-testid="viewer">
      <div className={styles.header} hidden={kiosk.kiosk}>
        <div className={styles.headerMain}>{header}</div>
        <div className={`${styles.headerSide} control-row`}>
          {actions}
          {kiosk.kiosk ? null : status}
          <button ref={enterRef} type="button" onClick={kiosk.enter} disabled={!interactive} aria-keyshortcuts="Escape" data-testid="enter-kiosk">
            <span className={styles.icon} aria-hidden="true">
              ⤢
            </span>
            <span className={styles.wideText}>Full screen</span>
          </button>
        </div>
      </div>
      <div className={styles.paramsArea} hidden={kiosk.kiosk}>
        {paramBar}
        {notice}
      </div>
      {children}
      {kiosk.kiosk ? (
        <div className={styles.kioskBar} role="group" aria-label="Full screen">
          {status}
          <button ref={exitRef} type="button" onClick={kiosk.leave} aria-keyshortcuts="Escape" data-testid="leave-kiosk">
            Exit full screen <span className={styles.key}>(Esc)</span>
          </button>
        </div>
      ) : null}
      <div hidden={kiosk.kiosk}>{footer}</div>
    </section>
  );
}

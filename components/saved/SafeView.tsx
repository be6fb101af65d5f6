"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useInteractive } from "@/components/interactive";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { DashboardParams } from "@/lib/frame/params";
import { INERT_LINKED_FRAME_ATTRIBUTES } from "@/lib/inert/policy";
import styles from "./saved.module.css";

// The safe view of someone else's code, a saved dashboard or a live draft's watch link: what the
// service drew on the viewer's own data (GET <path>/drawn, lib/saved/drawings.ts), shown as an
// inert document in a frame that may run no script. Its code never runs in this browser, so
// nothing it read can be sent anywhere; no question is asked. "Make it interactive" leads to
// today's consent gate for those who need its tooltips and sorting.
//
// One drawing is asked for at a time: a new revision arriving while one is being drawn waits for
// it, and of the revisions that arrive meanwhile only the last is asked for.

export interface DrawingAnswer {
  path: string;
  status: number;
}

interface Drawing {
  html: string;
  drawnAt: string;
  height: number;
  revision: number;
  viewport: "desktop" | "phone";
  remembered: boolean;
  answers: DrawingAnswer[];
}

type State =
  | { kind: "drawing"; waiting: number | null }
  | { kind: "ready"; drawing: Drawing; refreshing: boolean }
  | { kind: "error"; message: string };

/** A drawing is asked for again this often while the page is shown (as the live view redraws). */
const REFRESH_MS = 5 * 60_000;
/** A phone is drawn at a phone's width, so its responsive CSS applies there. */
const PHONE_QUERY = "(max-width: 600px)";
const FRAME_MIN_HEIGHT = 160;

interface SafeViewProps {
  path: string;
  revision: number;
  title: string;
  onInteractive: () => void;
  /** The statuses the viewer's own API gave the drawing's reads, each time it is drawn. */
  onAnswers?: (answers: readonly DrawingAnswer[]) => void;
  /** The page's `?p.*` values, drawn as the interactive view would be given them. */
  params?: DashboardParams;
  /** Whether `<path>/drawn.png` pictures it ("Download picture"): a saved dashboard's does, a draft's not yet. */
  picture?: boolean;
}

/** `&p.<name>=<value>` for each of the page's parameters, so the drawing is given what the page was. */
function paramsQuery(params: DashboardParams | undefined): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) q.append(`p.${k}`, v);
  const s = q.toString();
  return s ? `&${s}` : "";
}

export function SafeView({ path, revision, title, onInteractive, onAnswers, params, picture = true }: SafeViewProps) {
  const extra = paramsQuery(params);
  const [state, setState] = useState<State>({ kind: "drawing", waiting: null });
  // Each ask has its number: Refresh, the periodic redraw and a retry after "busy" each take the next.
  const [ask, setAsk] = useState(0);
  const again = useCallback(() => setAsk((n) => n + 1), []);
  // The ask under way, if any: the next one starts only once it has been answered.
  const asking = useRef<Promise<unknown> | null>(null);

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = (ms: number) => {
      timer = setTimeout(again, ms);
    };
    void (async () => {
      setState((s) => (s.kind === "ready" ? { ...s, refreshing: true } : { kind: "drawing", waiting: null }));
      await asking.current?.catch(() => null);
      if (!alive) return;
      const viewport = window.matchMedia(PHONE_QUERY).matches ? "phone" : "desktop";
      let res: Response;
      try {
        const answer = fetch(`${path}/drawn?viewport=${viewport}&revision=${revision}${extra}`, { credentials: "same-origin", cache: "no-store", headers: { accept: "application/json" } });
        asking.current = answer;
        res = await answer;
      } catch {
        if (alive) setState({ kind: "error", message: "The drawing could not be fetched; check your connection and refresh." });
        return;
      }
      const body = (await res.json().catch(() => null)) as (Drawing & { error?: string; hint?: string }) | null;
      if (!alive) return;
      if (res.status === 503 && body?.error === "renderer_busy") {
        const seconds = Math.max(1, Math.min(60, Number(res.headers.get("retry-after")) || 5));
        setState({ kind: "drawing", waiting: seconds });
        later(seconds * 1000);
        return;
      }
      if (!res.ok || !body || typeof body.html !== "string") {
        setState({ kind: "error", message: body?.hint ?? "The dashboard could not be drawn." });
        return;
      }
      setState({ kind: "ready", drawing: body, refreshing: false });
      onAnswers?.(Array.isArray(body.answers) ? body.answers : []);
      later(REFRESH_MS);
    })();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [path, revision, extra, ask, again, onAnswers]);

  const busy = state.kind === "drawing" || (state.kind === "ready" && state.refreshing);
  const hydrated = useInteractive();
  return (
    <section className={styles.safeView} aria-label="Drawn dashboard" data-testid="safe-view">
      <p className={styles.safeNotice} data-testid="safe-view-notice">
        <strong>Drawn on your data by this site:</strong> the dashboard&apos;s own code did not run in your browser.{" "}
        {state.kind === "ready" ? (
          <span className="muted">
            Drawn <RelativeTime ms={Date.parse(state.drawing.drawnAt)} />.
          </span>
        ) : null}{" "}
        <button type="button" onClick={again} disabled={busy || !hydrated}>
          Refresh
        </button>{" "}
        <button type="button" onClick={onInteractive} disabled={!hydrated} data-testid="make-interactive">
          Make it interactive
        </button>
        {state.kind === "ready" && picture ? (
          <>
            {" "}
            {/* The same drawing as a PNG (GET <path>/drawn.png), made from the inert document, not by running the code here. */}
            <a href={`${path}/drawn.png?viewport=${state.drawing.viewport}&revision=${state.drawing.revision}${extra}`} download data-testid="download-picture">
              Download picture
            </a>
          </>
        ) : null}
      </p>
      <p role="status" className={styles.message} data-testid="safe-view-status">
        {state.kind === "drawing"
          ? state.waiting === null
            ? "Drawing it on your data…"
            : `Waiting for a free drawing slot; trying again in ${state.waiting} s…`
          : state.kind === "ready" && state.refreshing
            ? "Drawing it again…"
            : state.kind === "error"
              ? state.message
              : ""}
      </p>
      {state.kind === "ready" ? (
        <iframe
          className={styles.safeFrame}
          data-testid="safe-view-frame"
          title={`Dashboard: ${title} (drawn on your data)`}
          sandbox={INERT_LINKED_FRAME_ATTRIBUTES.sandbox}
          referrerPolicy={INERT_LINKED_FRAME_ATTRIBUTES.referrerPolicy}
          srcDoc={state.drawing.html}
          style={{ height: `${Math.max(FRAME_MIN_HEIGHT, state.drawing.height)}px` }}
        />
      ) : state.kind === "drawing" ? (
        <div className={styles.safePlaceholder} aria-hidden="true" />
      ) : null}
    </section>
  );
}

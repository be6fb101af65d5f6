"use client";

import { useEffect, useEffectEvent, useRef, useState, type CSSProperties, type Dispatch, type RefObject, type SetStateAction } from "react";
import { useInteractive } from "@/components/interactive";
import { FRAME_PATH } from "@/lib/frame/bootstrap";
import { LINK_RULE, type LinkDecision } from "@/lib/frame/links";
import { FRAME_HEIGHT_MAX, SNAPSHOT_PANELS_SHOWN, type ConsoleNotice, type LinkRequest, type ErrorNotice, type InitMessage, type PaintRequest, type ScrollNotice, type SnapshotNotice } from "@/lib/frame/protocol";
import { paramsKey as keyOfParams, type DashboardParams } from "@/lib/frame/params";
import { ConnectNotice, isConnectionNeed } from "./ConnectNotice";
import { apiBaseOf, openBroker, RequestLimiter, type FrameData, type RequestLogEntry } from "./broker";
import { RenderRecorder, type RenderReportBody } from "./render-report";
import styles from "./DashboardFrame.module.css";

export type { DataMode, FrameData, RequestLogEntry } from "./broker";
export type { RenderReportBody } from "./render-report";
export type { ConsoleNotice, ErrorNotice } from "@/lib/frame/protocol";

export interface DashboardFrameProps {
  html: string;
  /**
   * Demo data, or the viewer's live data through a grant from lib/consent/live.ts: the one way a
   * frame gets live data. Pages that show code the viewer may not have written go through
   * ConsentedFrame, which asks.
   */
  data: FrameData;
  onRequest?: (entry: RequestLogEntry) => void;
  onNotice?: (notice: ScrollNotice | SnapshotNotice) => void;
  /**
   * Every uncaught error and console.error of the dashboard as it happens, before and after its
   * render report (a click handler that throws long after the dashboard settled).
   */
  onRuntime?: (notice: ErrorNotice | ConsoleNotice) => void;
  title: string;
  /** A shorter frame, for several side by side. */
  compact?: boolean;
  /** No border or rounded corners: the frame is the whole picture (the service's renders). */
  bare?: boolean;
  /**
   * The frame takes the height its document reports (bounded by FRAME_HEIGHT_MAX), so the page
   * scrolls rather than the frame. Off, the frame has a fixed height and scrolls inside.
   */
  fit?: boolean;
  /**
   * Keep a second frame loaded and waiting (default true), so a new revision appears without a
   * round trip for the frame's document. Off where many frames share a page.
   */
  standby?: boolean;
  /**
   * Called once per dashboard document that settles (see render-report.ts) with what happened
   * as it rendered, and the `renderKey` it was started with. A document replaced before it
   * settled reports nothing.
   */
  onReport?: (report: RenderReportBody, renderKey: string | number | undefined) => void;
  /** Where the frame is, for its reports. */
  reportPage?: RenderReportBody["page"];
  /** What is rendered (a revision): a new key starts the dashboard again even with the same HTML. */
  renderKey?: string | number;
  /**
   * The frame takes the place of something that had focus (the consent question): it becomes a
   * region named by its title and takes focus, so focus does not fall to the page's body.
   */
  takeFocus?: boolean;
  /**
   * The address's parameters, already bounded by parseDashboardParams: the dashboard reads them
   * as `window.DASHBOARD_PARAMS`. Other values start the dashboard again.
   */
  params?: DashboardParams;
}

/**
 * What the frame says while the dashboard shows its embedded snapshot: when it was taken, and
 * which panels show it (`whole` once a call named none: then all of the dashboard may be old).
 */
type SnapshotState = { takenAt: string | null; whole: boolean; panels: string[] } | null;

/** The state after one more notice: the latest time, and every panel named so far. */
function withSnapshot(cur: SnapshotState, notice: SnapshotNotice): SnapshotState {
  const takenAt = notice.takenAt ?? null;
  const whole = (cur?.whole ?? false) || notice.panel === undefined;
  const panels = cur?.panels ?? [];
  // Bounded: a dashboard naming panels in a loop cannot grow the page's state without end.
  const named = notice.panel !== undefined && panels.length < SNAPSHOT_PANELS_KEPT && !panels.includes(notice.panel);
  if (cur && cur.takenAt === takenAt && cur.whole === whole && !named) return cur;
  return { takenAt, whole, panels: named && notice.panel !== undefined ? [...panels, notice.panel] : panels };
}

/** The panel names the page remembers for its notice. */
const SNAPSHOT_PANELS_KEPT = 50;

/** "A", "A and B", "A, B and C", "A, B, … and 3 more": the panels a notice names. */
function panelList(panels: string[]): string {
  const shown = panels.slice(0, SNAPSHOT_PANELS_SHOWN);
  const more = panels.length - shown.length;
  const items = more > 0 ? [...shown, `${more} more`] : shown;
  return items.length === 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A date alone is a calendar day (parsed as UTC midnight): shown as that day wherever the viewer is. */
function snapshotTimeText(takenAt: string): string {
  const date = new Date(takenAt);
  return takenAt.length === 10
    ? date.toLocaleDateString(undefined, { dateStyle: "medium", timeZone: "UTC" })
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function SnapshotNoticeText({ state }: { state: NonNullable<SnapshotState> }) {
  const { takenAt, whole, panels } = state;
  const when = takenAt ? (
    <>
      {" "}
      from <time dateTime={takenAt}>{snapshotTimeText(takenAt)}</time>
    </>
  ) : null;
  const where = !whole && panels.length > 0 ? ` in ${panelList(panels)}; the rest is live` : "";
  const undated = takenAt ? "" : "; the dashboard does not say when it was taken";
  return (
    <>
      Showing snapshot data{when}
      {where}
      {undated}
    </>
  );
}

/**
 * The box a frame will take before its document has said how tall it is: a page that learns its
 * dashboard after the first paint draws this in its place, so nothing below moves when it comes.
 */
export function FramePlaceholder({ fit, bare }: { fit?: boolean; bare?: boolean }) {
  return <div className={[styles.frame, fit ? styles.fit : "", bare ? styles.bare : ""].filter(Boolean).join(" ")} data-frame-placeholder="" aria-hidden="true" />;
}

/** A fitted frame is never shorter than this, so an empty or failing dashboard still has room. */
const FIT_MIN_HEIGHT = 160;

/** Loads the frame did not ask for (a dashboard reloading itself) tolerated before giving up. */
const SELF_RELOADS_MAX = 3;

/** What the host knows of one of its frames. */
interface Slot {
  /** Stops the broker answering this frame's current document (and its render report). */
  close: (() => void) | null;
  /** The render report of the current document, while it has not settled. */
  recorder: RenderRecorder | null;
  selfLoads: number;
  /** The next load is one the host asked for. */
  ownReload: boolean;
  /** The init was sent; the load that document.close() finishes is the dashboard appearing. */
  awaitingWrite: boolean;
  /** A standby whose bootstrap has loaded and waits for its init. */
  ready: boolean;
  /** Refused links said in the console for the current document. */
  linkLines: number;
}

const freshSlot = (): Slot => ({ close: null, recorder: null, selfLoads: 0, ownReload: true, awaitingWrite: false, ready: false, linkLines: 0 });

/** Refused links one document's console is told of; a dashboard clicking in a loop is not heard further. */
const LINK_LINES_MAX = 50;

/**
 * Opens a link the frame asked for, or says why not. The frame's word is nothing: the address must
 * be one its answers named or a page of this site (`decision`, from lib/frame/links.ts), this page
 * must hold transient user activation, which only a real click or key press grants (one in the
 * frame reaches its ancestors; a script's click() or dispatched event grants none), and the frame
 * must hold the page's focus, so a click elsewhere on the page (its own buttons) opens nothing.
 * Opening consumes the activation: one gesture, one tab. The tab has no opener and no referrer.
 */
function openLink(request: LinkRequest, decision: LinkDecision, frame: HTMLIFrameElement | null, slot: Slot): ConsoleNotice | null {
  let refused: string | null = null;
  if (request.via === "open") refused = `window.open() never opens anything from a dashboard. Write a link instead: <a href="…" target="_blank"> with a URL from the data. ${LINK_RULE}`;
  else if (!decision.ok) refused = decision.reason;
  else if (!navigator.userActivation?.isActive) refused = `The link to ${decision.url} was not opened: no one clicked it (a script's click() opens nothing). ${LINK_RULE}`;
  else if (!frame || document.activeElement !== frame) refused = `The link to ${decision.url} was not opened: the click was not in the dashboard.`;
  if (refused === null && decision.ok) {
    window.open(decision.url, "_blank", "noopener,noreferrer");
    return { type: "console", level: "info", message: `Opened ${decision.url} in a new tab.` };
  }
  if (slot.linkLines >= LINK_LINES_MAX) return null;
  slot.linkLines++;
  const message = `Link refused: ${refused ?? ""}`;
  console.warn(message);
  return { type: "console", level: "warn", message };
}

/** What a frame's document is wired to in the host: the latest props, the shared limiter, the frame's state. */
interface DocumentHooks {
  latest: RefObject<DashboardFrameProps>;
  limiter: RequestLimiter;
  /** The frame element, looked up when a link is asked for: the element may be replaced meanwhile. */
  frameOf: () => HTMLIFrameElement | null;
  scrollY: RefObject<number>;
  setNeeds: Dispatch<SetStateAction<readonly string[]>>;
  setContentHeight: (height: number) => void;
  setSnapshot: Dispatch<SetStateAction<SnapshotState>>;
}

/** Opens the broker for a frame's new document and hands it the current dashboard and a new port. */
function startDocument(target: Window, slot: Slot, hooks: DocumentHooks): void {
  const { latest, scrollY } = hooks;
  const p = latest.current;
  const channel = new MessageChannel();
  const config = () => latest.current.data;
  const startedKey = p.renderKey;
  const recorder = p.onReport
    ? new RenderRecorder({
        page: p.reportPage ?? "watch",
        requestPaint: (id) => channel.port1.postMessage({ type: "paint", id } satisfies PaintRequest),
        onDone: (report) => {
          slot.recorder = null;
          // Reports are kept per parameter set: say which one this document was given.
          latest.current.onReport?.({ ...report, params: p.params ? { ...p.params } : {} }, startedKey);
        },
      })
    : null;
  const closeBroker = openBroker(channel.port1, {
    config,
    limiter: hooks.limiter,
    onRequestStart: () => recorder?.requestStarted(),
    onRequest: (entry) => {
      recorder?.requestAnswered(entry);
      if (entry.mode === "live" && isConnectionNeed(entry.error)) {
        const code = entry.error;
        hooks.setNeeds((cur) => (cur.includes(code) ? cur : [...cur, code]));
      }
      latest.current.onRequest?.(entry);
    },
    onLink: (request, decision) => {
      const frame = hooks.frameOf();
      const said = openLink(request, decision, frame, slot);
      if (said) latest.current.onRuntime?.(said);
    },
    onNotice: (notice) => {
      if (notice.type === "height") {
        // Clamped again here: the notice was parsed, but the height is all a frame may set.
        const h = Math.min(FRAME_HEIGHT_MAX, Math.max(FIT_MIN_HEIGHT, notice.height));
        hooks.setContentHeight(h);
        return;
      }
      if (notice.type === "scroll") scrollY.current = notice.y;
      else if (notice.type === "snapshot") {
        hooks.setSnapshot((cur) => withSnapshot(cur, notice));
      } else {
        recorder?.notice(notice);
        if (notice.type === "error" || notice.type === "console") latest.current.onRuntime?.(notice);
        return;
      }
      latest.current.onNotice?.(notice);
    },
  });
  slot.recorder = recorder;
  slot.close = () => {
    recorder?.cancel();
    closeBroker();
  };
  // Copied into a plain object: structured cloning keeps own string properties and nothing else.
  const params = p.params ? { ...p.params } : {};
  const init: InitMessage = { type: "init", html: p.html, apiBase: apiBaseOf(p.data), scroll: scrollY.current, params };
  // The frame's origin is opaque, so "*" is the only target origin that reaches it; the frame
  // holds nothing but this dashboard, which is what the message carries.
  target.postMessage(init, "*", [channel.port2]);
  slot.awaitingWrite = true;
  slot.ready = false;
}

/** How long the first standby waits for the browser to be idle, and its wait where idle callbacks are missing. */
const STANDBY_IDLE_WAIT_MS = 3_000;
const STANDBY_FALLBACK_MS = 500;

/** The frames on the page, by React key: the visible one and the standby, if any. */
interface Frames {
  active: number;
  standby: number | null;
}

/**
 * The frames once the dashboard starts again: the standby, if its bootstrap is ready and takes
 * the dashboard, becomes the shown frame; else new frames take the place of both.
 */
function nextFrames(
  current: Frames,
  standby: boolean,
  nextKey: RefObject<number>,
  slots: Map<number, Slot>,
  elements: Map<number, HTMLIFrameElement>,
  begin: (key: number) => boolean,
): Frames {
  const { active, standby: waiting } = current;
  if (waiting !== null && slots.get(waiting)?.ready && begin(waiting)) {
    slots.get(active)?.close?.();
    slots.delete(active);
    // Shown at once rather than at React's next commit: a hidden frame's rendering is held
    // back, so the new revision paints only once its frame is visible.
    const shown = elements.get(waiting);
    const old = elements.get(active);
    if (shown) shown.hidden = false;
    if (old) old.hidden = true;
    return { active: waiting, standby: nextKey.current++ };
  }
  // No standby ready (two revisions in quick succession, or none kept): new frames take the
  // place of both. Navigating the old element instead would let a load event of its previous
  // document (its bootstrap's, or the one document.close() finishes) be taken for the new one.
  for (const key of [active, waiting]) {
    if (key === null) continue;
    slots.get(key)?.close?.();
    slots.delete(key);
  }
  return { active: nextKey.current++, standby: standby ? nextKey.current++ : null };
}

/** The frame's documents as the host sees them: the props they read, their scroll and notices, and starting one. */
function useFrameDocument(props: DashboardFrameProps, elements: RefObject<Map<number, HTMLIFrameElement>>) {
  const latest = useRef(props);
  const scrollY = useRef(0);
  const limiter = useRef<RequestLimiter | null>(null);
  const [snapshot, setSnapshot] = useState<SnapshotState>(null);
  // The refusals the viewer fixes on /connections, met by the shown document's live reads.
  const [needs, setNeeds] = useState<readonly string[]>([]);
  // The reported height of the shown document; kept across revisions until the next one reports.
  const [contentHeight, setContentHeight] = useState<number | null>(null);

  useEffect(() => {
    latest.current = props;
  });

  /** Hands frame `key`'s new document the current dashboard and a new port. */
  const open = (key: number, target: Window, slot: Slot) => {
  // A new document has said nothing yet about showing a snapshot, or met any refusal.
  setSnapshot(null);
  setNeeds([]);
  limiter.current ??= new RequestLimiter();
  startDocument(target, slot, {
    latest,
    limiter: limiter.current,
    frameOf: () => elements.current.get(key) ?? null,
    scrollY,
    setNeeds,
    setContentHeight,
    setSnapshot,
  });
  };
  return { snapshot, needs, contentHeight, open };
}

/** What the host knows of each of its frames, by key; every frame's broker closed when the host goes. */
function useSlots() {
  const slots = useRef(new Map<number, Slot>());
  useEffect(() => {
    const all = slots.current;
    return () => {
      for (const slot of all.values()) slot.close?.();
    };
  }, []);

  const slotOf = (key: number): Slot => {
    let slot = slots.current.get(key);
    if (!slot) {
      slot = freshSlot();
      slots.current.set(key, slot);
    }
    return slot;
  };
  return { slots, slotOf };
}

/** Whether the first standby is in the page yet: armed once the browser is idle, or at once. */
function useStandbyArming() {
  const [standbyArmed, setStandbyArmed] = useState(false);
  const arming = useRef(false);
  const armStandby = () => {
    if (arming.current) return;
    arming.current = true;
    const arm = () => setStandbyArmed(true);
    if (typeof requestIdleCallback === "function") requestIdleCallback(arm, { timeout: STANDBY_IDLE_WAIT_MS });
    else setTimeout(arm, STANDBY_FALLBACK_MS);
  };
  const armStandbyNow = () => {
    arming.current = true;
    setStandbyArmed(true);
  };
  return { standbyArmed, armStandby, armStandbyNow };
}

/** The frame's notices: the embedded snapshot shown, and the connections the live reads need. */
function FrameNotices({ snapshot, needs }: { snapshot: SnapshotState; needs: readonly string[] }) {
  return (
    <>
      {/* Always rendered, so assistive technology already watches the region when text arrives. */}
      <div role="status" className={styles.snapshot} data-testid="snapshot-notice" data-taken-at={snapshot?.takenAt ?? undefined}>
        {snapshot ? (
          <p>
            <SnapshotNoticeText state={snapshot} />
          </p>
        ) : null}
      </div>
      <div role="status" className={styles.snapshot} data-testid="connect-notice">
        <ConnectNotice codes={needs} />
      </div>
    </>
  );
}

interface FrameElementsProps {
  frames: Frames;
  standbyArmed: boolean;
  elements: RefObject<Map<number, HTMLIFrameElement>>;
  className: string;
  style: CSSProperties | undefined;
  interactive: boolean;
  title: string;
  onLoad: (key: number) => void;
}

/** The sandboxed frames themselves: the shown one and, once armed, the standby. */
function FrameElements({ frames, standbyArmed, elements, className, style, interactive, title, onLoad }: FrameElementsProps) {
  return (
    <>
      {/* Keys only grow and the standby is always the newer frame, so the order never changes:
          a frame moved in the page would reload. */}
      {[frames.active, standbyArmed ? frames.standby : null].flatMap((key) => {
        if (key === null) return [];
        const shown = key === frames.active;
        return [
          <iframe
            key={key}
            ref={(el) => {
              if (!el) return;
              elements.current.set(key, el);
              return () => {
                elements.current.delete(key);
              };
            }}
            className={className}
            // The standby carries the shown height too: it takes the visible frame's place at once,
            // before React's next commit, and a shorter frame there would pull the page's scroll up.
            style={style}
            src={interactive ? FRAME_PATH : undefined}
            sandbox="allow-scripts"
            referrerPolicy="no-referrer"
            title={shown ? title : "Standby frame"}
            hidden={!shown}
            tabIndex={shown ? undefined : -1}
            onLoad={() => onLoad(key)}
            data-testid={shown ? "dashboard-frame" : "dashboard-frame-standby"}
          />,
        ];
      })}
    </>
  );
}

/**
 * Renders untrusted dashboard HTML in an opaque-origin sandboxed frame. Each change of the
 * dashboard starts from a fresh bootstrap document with a new MessageChannel, so no script of
 * the previous revision survives and the old port stops answering.
 *
 * With a standby (the default), a second, hidden frame has its bootstrap loaded already: a new
 * revision goes to it and it becomes the visible frame, the old frame is removed from the page
 * (and every script in it with it), and a new standby starts loading. Each standby is a new
 * element, so the only load it ever sees is its own bootstrap's.
 */
export function DashboardFrame(props: DashboardFrameProps) {
  const { html, data, title, compact, fit, bare, renderKey, takeFocus } = props;
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (takeFocus) wrap.current?.focus();
  }, [takeFocus]);
  const apiBase = apiBaseOf(data);
  const { mode } = data;
  const scenario = data.mode === "demo" ? data.scenario : undefined;
  const examplesKey = JSON.stringify(data.mode === "demo" ? (data.examples ?? {}) : {});
  // A grant covering other paths starts the dashboard again, so reads refused before are made anew.
  const grantKey = data.mode === "live" ? JSON.stringify(data.grant.paths) : "";
  const paramsKey = keyOfParams(props.params);
  // Fixed for the component's life: a standby appearing or vanishing later would move frames.
  const [standby] = useState(props.standby ?? true);
  const [frames, setFrames] = useState<Frames>(() => ({ active: 0, standby: standby ? 1 : null }));
  const framesRef = useRef(frames);
  const nextKey = useRef(2);
  const elements = useRef(new Map<number, HTMLIFrameElement>());
  const { snapshot, needs, contentHeight, open } = useFrameDocument(props, elements);
  const { slots, slotOf } = useSlots();
  const firstRun = useRef(true);
  const [halted, setHalted] = useState(false);
  // A frame in server-rendered markup would load its bootstrap before hydration attaches the
  // load handler that sends the init, and the bootstrap would wait forever. So the frame gets
  // its address only once the page is interactive.
  const interactive = useInteractive();
  // The first standby is put in the page once the shown dashboard is in and the browser is idle:
  // making a frame is a long task of its own on a phone, and two at once would hold up the page.
  // It comes after the shown frame, so adding it moves nothing. After that (or once a revision
  // arrives) every standby is made as before.
  const { standbyArmed, armStandby, armStandbyNow } = useStandbyArming();

  /** Hands frame `key`, whose bootstrap has loaded, the current dashboard and a new port. */
  const begin = (key: number): boolean => {
    const target = elements.current.get(key)?.contentWindow;
    if (!target) return false;
    const slot = slotOf(key);
    slot.close?.();
    slot.linkLines = 0;
    open(key, target, slot);
    return true;
  };

  const restart = useEffectEvent(() => {
    if (standby) armStandbyNow();
    const next = nextFrames(framesRef.current, standby, nextKey, slots.current, elements.current, begin);
    framesRef.current = next;
    setFrames(next);
    setHalted(false);
  });

  // A new revision, scenario or data mode: start the dashboard again from a bootstrap.
  useEffect(() => {
    if (firstRun.current) {
      firstRun.current = false;
      return;
    }
    restart();
  }, [html, apiBase, mode, scenario, examplesKey, grantKey, renderKey, paramsKey]);

  const onLoad = (key: number) => {
    // The empty document a frame holds before it has an address is not the bootstrap, and a
    // frame already replaced has nothing more to say.
    if (!elements.current.get(key)?.getAttribute("src")) return;
    const { active, standby: waiting } = framesRef.current;
    if (key !== active && key !== waiting) return;
    const slot = slotOf(key);
    if (key !== active) {
      slot.ownReload = false;
      slot.ready = true;
      return;
    }
    // The bootstrap's document.close() finishes a second load of the same document: that one
    // is the dashboard appearing, not a navigation.
    if (slot.awaitingWrite) {
      slot.awaitingWrite = false;
      slot.recorder?.documentLoaded();
      if (standby) armStandby();
      return;
    }
    slot.close?.();
    slot.close = null;
    if (slot.ownReload) slot.ownReload = false;
    else if (++slot.selfLoads > SELF_RELOADS_MAX + 1) {
      setHalted(true);
      return;
    }
    setHalted(false);
    begin(key);
  };

  const frameClass = [styles.frame, compact ? styles.compact : "", fit ? styles.fit : "", bare ? styles.bare : ""].filter(Boolean).join(" ");
  const frameStyle = fit && contentHeight !== null ? { height: `${contentHeight}px` } : undefined;
  return (
    <div
      className={styles.wrap}
      ref={wrap}
      role={takeFocus ? "region" : undefined}
      aria-label={takeFocus ? title : undefined}
      tabIndex={takeFocus ? -1 : undefined}
      data-testid={takeFocus ? "dashboard-region" : undefined}
    >
      <FrameNotices snapshot={snapshot} needs={needs} />
      <FrameElements frames={frames} standbyArmed={standbyArmed} elements={elements} className={frameClass} style={frameStyle} interactive={interactive} title={title} onLoad={onLoad} />
      {halted ? (
        <p className={styles.halted} role="alert">
          The dashboard kept reloading itself, so it was stopped. It starts again with the next revision.
        </p>
      ) : null}
    </div>
  );
}

"use client";

import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { FramePlaceholder, type RenderReportBody, type RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { RenderReportView } from "@/components/dashboard-frame/RenderReportView";
import { sendRenderReport } from "@/components/dashboard-frame/send-report";
import type { DraftView } from "@/lib/contract/playground";
import type { SavedRef, Saver } from "@/components/saved/SaveToSpace";
import { readWriteCapability } from "@/components/editor/local-drafts";
import { wouldAsk } from "@/lib/consent/live";
import { htmlTitle } from "@/lib/saved/slug";
import { ViewerShell } from "@/components/viewer/ViewerShell";
import { useKiosk } from "@/components/viewer/useKiosk";
import { ParamBar } from "@/components/viewer/ParamBar";
import { useParamReads } from "@/components/viewer/useParamReads";
import type { DashboardParams } from "@/lib/frame/params";
import { releaseRenderLatch } from "./render-latch";
import { useDraftStream, type Connection } from "./useDraftStream";
import { ConnectionState } from "./ConnectionState";
import { RequestLog } from "./RequestLog";
import { WatchHeader } from "./WatchHeader";
import { WatchFrame } from "./WatchFrame";
import styles from "./watch.module.css";

const LOG_MAX = 200;

/**
 * A static render is finished: `data-rendered` on the root is what screenshot tools wait for,
 * and the page's load event, which `chromium --screenshot` waits for, was held back by the
 * render latch (see the watch page) until now.
 */
function markRendered(): void {
  document.documentElement.dataset.rendered = "true";
  releaseRenderLatch();
}

/**
 * No draft answers to the link (unknown, or removed after a while without updates). The page
 * answers it with 404 (the segment's not-found page) when the draft is gone at the first request,
 * and the live part shows the same when it goes while someone watches. Nothing more will render,
 * so a static render is finished.
 */
export function DraftNotFound() {
  useEffect(() => {
    markRendered();
  }, []);
  return (
    <section aria-labelledby="watch-title" data-testid="watch-not-found">
      <h1 id="watch-title">Draft not found</h1>
      <p>No draft answers to this link. Drafts are removed after a while without updates; ask whoever sent the link for a new one.</p>
    </section>
  );
}

/**
 * The watch page's live part: the draft, its stream, the frame and the request log. With
 * `staticRender` it renders the current revision once and opens no stream, and marks the page
 * rendered once the dashboard has settled.
 */
interface WatchDraftProps {
  id: string;
  saver?: Saver | null;
  signedIn: boolean;
  staticRender?: boolean;
  /** Opened with `?kiosk=1`: the dashboard alone. */
  kiosk?: boolean;
  /** The address's `p.*` parameters, bounded, and the sentence naming those dropped. */
  params?: DashboardParams;
  paramsNotice?: string | null;
  /** The draft's name as the server found it, so the first paint already says what is watched. */
  name?: string | null;
}

export function WatchDraft({ id, name: nameAtStart = null, saver, signedIn, staticRender = false, kiosk: kioskAtStart = false, params: paramsAtStart, paramsNotice = null }: WatchDraftProps) {
  const kiosk = useKiosk(kioskAtStart);
  const { load, connection } = useDraftStream(id, staticRender);
  // The address's parameters at first, then what the parameter bar applies.
  const [params, setParams] = useState<DashboardParams>(() => paramsAtStart ?? {});
  const [noticeShown, setNoticeShown] = useState(true);
  const paramReads = useParamReads(load.kind === "ready" ? load.view.html : null);
  const applyParams = useCallback((next: DashboardParams) => {
    // The address now holds only what was passed: the notice about it no longer applies.
    setNoticeShown(false);
    setParams(next);
  }, []);
  const [data, setData] = useState<"live" | "demo" | "waiting">("live");
  const [savedRef, setSavedRef] = useState<SavedRef | null>(null);
  const [log, setLog] = useState<RequestLogEntry[]>([]);
  const [report, setReport] = useState<{ revision: number; body: RenderReportBody } | null>(null);
  // A live draft someone else wrote is drawn by the site on the viewer's data (the safe view)
  // until they ask for it interactive, which leads to the consent gate.
  const [interactive, setInteractive] = useState(false);
  // One report per revision per page load, whatever the frame does.
  const reported = useRef(new Set<number>());

  const dataMode = load.kind === "ready" ? load.view.dataMode : null;

  // A static render that ends without a dashboard (no such draft, a failure, the consent gate)
  // is finished as it stands.
  useEffect(() => {
    if (staticRender && (load.kind === "not-found" || load.kind === "failed" || data === "waiting")) markRendered();
  }, [staticRender, load.kind, data]);

  const onReport = useCallback(
    (body: RenderReportBody, key: string | number | undefined) => {
      if (typeof key !== "number") return;
      setReport({ revision: key, body });
      if (staticRender) markRendered();
      // A live draft renders the viewer's own data: nothing of it goes back to the author.
      if (dataMode !== "demo" || reported.current.has(key)) return;
      reported.current.add(key);
      void sendRenderReport({ readId: id }, key, body);
    },
    [id, dataMode, staticRender],
  );

  const onRequest = useCallback((entry: RequestLogEntry) => {
    setLog((cur) => [entry, ...cur].slice(0, LOG_MAX));
  }, []);

  // The tab says what the header says, and follows the draft's <title> as revisions arrive.
  const readyName = load.kind === "ready" ? draftName(load.view) : null;
  useEffect(() => {
    if (readyName) document.title = `Watching ${readyName} · Dashboards`;
  }, [readyName]);

  // A static render is a picture of the address as given: nothing there to change.
  const paramBar = staticRender ? null : <ParamBar reads={paramReads} params={params} onApply={applyParams} />;
  if (load.kind === "loading") return loadingShell({ kiosk, name: nameAtStart, connection, paramsNotice, paramBar });
  if (load.kind === "not-found") return <DraftNotFound />;
  if (load.kind === "failed") return <DraftFailed />;

  const view = load.view;
  const live = view.dataMode === "live";
  const name = draftName(view);
  // Until the next GET of the draft brings the new revision's manifest, the agreed paths stay
  // those of the revision that was agreed to: a manifest is never taken from the event alone.
  const reads = view.reads;
  // Drawn by the site where the gate would ask today: a signed-in watcher, code that reads their
  // data, written in a browser other than this one (the write capability is kept only where the
  // draft was made). A static render keeps to the frame it reports from.
  const safe = live && signedIn && !interactive && !staticRender && !ownDraft(id) && wouldAsk({ signedIn, author: { kind: "draft" }, reads });
  const footer = (
    <>
      {report && report.revision === view.revision ? (
        <RenderReportView
          report={report.body}
          note={live ? "Shown to you only: a draft on live data sends nothing back." : "This report (errors, console.error lines, refused and made requests of the demo data) is sent to the draft's author."}
        />
      ) : null}
      <RequestLog entries={log} />
    </>
  );
  return (
    <ViewerShell
      kiosk={kiosk}
      labelledBy="watch-title"
      header={<WatchHeader view={view} name={name} safe={safe} data={data} saver={saver} savedRef={savedRef} onSaved={setSavedRef} />}
      status={<ConnectionState connection={connection} />}
      paramsNotice={noticeShown ? paramsNotice : null}
      paramBar={paramBar}
      footer={footer}
    >
      <WatchFrame
        id={id}
        view={view}
        name={name}
        reads={reads}
        safe={safe}
        signedIn={signedIn}
        staticRender={staticRender}
        bare={kiosk.kiosk}
        params={params}
        onRequest={onRequest}
        onReport={onReport}
        onDataChange={setData}
        onInteractive={() => setInteractive(true)}
      />
    </ViewerShell>
  );
}

interface WatchLoadingProps {
  kiosk: ReturnType<typeof useKiosk>;
  name: string | null;
  connection: Connection;
  paramsNotice: string | null;
  paramBar: ReactNode;
}

/**
 * The page's own layout from the first paint, the frame's box included: the draft's arrival
 * fills it in rather than moving everything under a centred "loading" line. Called, not
 * rendered as a component, so the shell is the same element once the draft arrives.
 */
function loadingShell({ kiosk, name, connection, paramsNotice, paramBar }: WatchLoadingProps) {
  return (
    <ViewerShell
      kiosk={kiosk}
      labelledBy="watch-title"
      header={
        <>
          <h1 id="watch-title">
            Watching <bdi>{name ?? "untitled draft"}</bdi>
          </h1>
          <p className={`${styles.meta} muted`} data-testid="provenance" aria-busy="true">
            Loading the draft…
          </p>
        </>
      }
      status={<ConnectionState connection={connection} />}
      paramsNotice={paramsNotice}
      // The address's parameters from the first paint; the names the draft reads join them once it arrives.
      paramBar={paramBar}
    >
      <FramePlaceholder fit bare={kiosk.kiosk} />
    </ViewerShell>
  );
}

function DraftFailed() {
  return (
    <section aria-labelledby="watch-title">
      <h1 id="watch-title">The draft could not be loaded</h1>
      <p className="error-text">The playground did not answer as expected. Reload the page to try again.</p>
    </section>
  );
}

/** Whether this browser made the draft: it keeps the draft's write capability (components/editor). */
function ownDraft(id: string): boolean {
  try {
    return readWriteCapability(window.localStorage, id) !== null;
  } catch {
    return false;
  }
}

/** The name the author gave, else the document's own <title>, as a saved dashboard is named. */
function draftName(view: DraftView): string {
  return view.dash ?? htmlTitle(view.html) ?? "untitled draft";
}

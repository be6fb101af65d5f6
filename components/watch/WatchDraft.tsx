"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ConsentedFrame } from "@/components/dashboard-frame/ConsentedFrame";
import { DashboardFrame, FramePlaceholder, type RenderReportBody, type RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { RenderReportView } from "@/components/dashboard-frame/RenderReportView";
import { sendRenderReport } from "@/components/dashboard-frame/send-report";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import type { DraftView } from "@/lib/contract/playground";
import { draftEventShape, draftViewShape } from "@/lib/contract/draft-shapes";
import { parseOrNull } from "@/lib/contract/json-shape";
import { SaveToSpace, type SavedRef, type Saver } from "@/components/saved/SaveToSpace";
import { SafeView } from "@/components/saved/SafeView";
import { readWriteCapability } from "@/components/editor/local-drafts";
import { wouldAsk } from "@/lib/consent/live";
import { htmlTitle } from "@/lib/saved/slug";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { ViewerShell } from "@/components/viewer/ViewerShell";
import { useKiosk } from "@/components/viewer/useKiosk";
import { ParamBar } from "@/components/viewer/ParamBar";
import { useParamReads } from "@/components/viewer/useParamReads";
import type { DashboardParams } from "@/lib/frame/params";
import { releaseRenderLatch } from "./render-latch";
import styles from "./watch.module.css";

type Load = { kind: "loading" } | { kind: "not-found" } | { kind: "failed" } | { kind: "ready"; view: DraftView };

type Connection =
  | { kind: "connecting" }
  | { kind: "live" }
  | { kind: "reconnecting"; since: number }
  | { kind: "stale"; since: number }
  // Rendered once, with no stream (?static=1).
  | { kind: "static" };

/** How long "reconnecting" is shown before it reads "not updating since …". */
const RECONNECTING_GRACE_MS = 20_000;
/** After the browser gives up on the stream, tries again this often at first, then less often. */
const RETRY_MIN_MS = 5_000;
const RETRY_MAX_MS = 60_000;
const LOG_MAX = 200;

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** A busy server asks a reader to come back (429 with Retry-After): at most this long, this often. */
const BUSY_WAIT_MAX_S = 10;
const BUSY_TRIES = 6;

async function fetchDraft(id: string, tries = BUSY_TRIES): Promise<Load> {
  try {
    const res = await fetch(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`, { cache: "no-store", credentials: "omit" });
    if (res.status === 429 && tries > 1) {
      const wait = Math.min(BUSY_WAIT_MAX_S, Math.max(1, Number(res.headers.get("retry-after")) || 1));
      await new Promise((r) => setTimeout(r, wait * 1000));
      return fetchDraft(id, tries - 1);
    }
    if (res.status === 404) return { kind: "not-found" };
    if (!res.ok) return { kind: "failed" };
    const view = parseOrNull(draftViewShape, await res.json());
    return view ? { kind: "ready", view } : { kind: "failed" };
  } catch {
    return { kind: "failed" };
  }
}

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
  const [load, setLoad] = useState<Load>({ kind: "loading" });
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
  const [connection, setConnection] = useState<Connection>(staticRender ? { kind: "static" } : { kind: "connecting" });
  const [log, setLog] = useState<RequestLogEntry[]>([]);
  const [report, setReport] = useState<{ revision: number; body: RenderReportBody } | null>(null);
  // A live draft someone else wrote is drawn by the site on the viewer's data (the safe view)
  // until they ask for it interactive, which leads to the consent gate.
  const [interactive, setInteractive] = useState(false);
  const revision = useRef(0);
  // One report per revision per page load, whatever the frame does.
  const reported = useRef(new Set<number>());

  useEffect(() => {
    let cancelled = false;
    void fetchDraft(id).then((l) => {
      if (cancelled) return;
      if (l.kind === "ready") revision.current = l.view.revision;
      setLoad(l);
    });
    return () => {
      cancelled = true;
    };
  }, [id]);

  const ready = load.kind === "ready";
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

  useEffect(() => {
    if (!ready || staticRender) return;
    let es: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    let retryMs = RETRY_MIN_MS;
    let lastContact = Date.now();
    let closed = false;

    const refreshReads = async (rev: number) => {
      // The event carries what renders; the agreed reads come with the next GET of the draft.
      const l = await fetchDraft(id);
      if (closed || l.kind !== "ready" || l.view.revision !== rev) return;
      setLoad((cur) =>
        cur.kind === "ready" && cur.view.revision === rev
          ? { kind: "ready", view: { ...cur.view, reads: l.view.reads, updatedAt: l.view.updatedAt } }
          : cur,
      );
    };

    const connect = () => {
      es = new EventSource(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}/events`);
      es.onopen = () => {
        lastContact = Date.now();
        retryMs = RETRY_MIN_MS;
        clearTimeout(grace);
        setConnection({ kind: "live" });
      };
      es.addEventListener("draft", (event) => {
        lastContact = Date.now();
        let data: unknown;
        try {
          data = JSON.parse((event as MessageEvent<string>).data);
        } catch {
          return;
        }
        const ev = parseOrNull(draftEventShape, data);
        if (!ev || ev.revision === revision.current) return;
        revision.current = ev.revision;
        setLoad((cur) =>
          cur.kind === "ready"
            ? { kind: "ready", view: { ...cur.view, revision: ev.revision, html: ev.html, scenario: ev.scenario, examples: ev.examples, dash: ev.dash, updatedAt: Date.now() } }
            : cur,
        );
        void refreshReads(ev.revision);
      });
      es.onerror = () => {
        if (!es) return;
        if (es.readyState === EventSource.CLOSED) {
          // The browser gave up (the server answered with an error): try again ourselves.
          es.close();
          setConnection({ kind: "stale", since: lastContact });
          retry = setTimeout(connect, retryMs);
          retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
          return;
        }
        const since = lastContact;
        setConnection((cur) => (cur.kind === "stale" ? cur : { kind: "reconnecting", since }));
        clearTimeout(grace);
        grace = setTimeout(() => setConnection((cur) => (cur.kind === "reconnecting" ? { kind: "stale", since: cur.since } : cur)), RECONNECTING_GRACE_MS);
      };
    };
    connect();

    return () => {
      closed = true;
      clearTimeout(retry);
      clearTimeout(grace);
      es?.close();
    };
  }, [id, ready, staticRender]);

  const onRequest = useCallback((entry: RequestLogEntry) => {
    setLog((cur) => [entry, ...cur].slice(0, LOG_MAX));
  }, []);

  // The tab says what the header says, and follows the draft's <title> as revisions arrive.
  const readyName = load.kind === "ready" ? draftName(load.view) : null;
  useEffect(() => {
    if (readyName) document.title = `Watching ${readyName} · Dashboards`;
  }, [readyName]);

  if (load.kind === "loading") {
    // The page's own layout from the first paint, the frame's box included: the draft's arrival
    // fills it in rather than moving everything under a centred "loading" line.
    return (
      <ViewerShell
        kiosk={kiosk}
        labelledBy="watch-title"
        header={
          <>
            <h1 id="watch-title">
              Watching <bdi>{nameAtStart ?? "untitled draft"}</bdi>
            </h1>
            <p className={`${styles.meta} muted`} data-testid="provenance" aria-busy="true">
              Loading the draft…
            </p>
          </>
        }
        status={<ConnectionState connection={connection} />}
        paramsNotice={paramsNotice}
        // The address's parameters from the first paint; the names the draft reads join them once it arrives.
        paramBar={staticRender ? null : <ParamBar reads={paramReads} params={params} onApply={applyParams} />}
      >
        <FramePlaceholder fit bare={kiosk.kiosk} />
      </ViewerShell>
    );
  }
  if (load.kind === "not-found") return <DraftNotFound />;
  if (load.kind === "failed") {
    return (
      <section aria-labelledby="watch-title">
        <h1 id="watch-title">The draft could not be loaded</h1>
        <p className="error-text">The playground did not answer as expected. Reload the page to try again.</p>
      </section>
    );
  }

  const view = load.view;
  const live = view.dataMode === "live";
  const name = draftName(view);
  // Until the next GET of the draft brings the new revision's manifest, the agreed paths stay
  // those of the revision that was agreed to: a manifest is never taken from the event alone.
  const reads = view.reads;
  // Drawn by the site where the gate would ask today: a signed-in watcher, code that reads their
  // data, written in a browser other than this one (the write capability is kept only where the
  // draft was made). A static render keeps to the frame it reports from.
  const safe =
    live &&
    signedIn &&
    !interactive &&
    !staticRender &&
    !ownDraft(id) &&
    wouldAsk({ signedIn, author: { kind: "draft" }, reads });
  const dataText = !live
    ? `demo data · scenario ${view.scenario}${forcedText(view.examples)}`
    : safe
      ? "your live data, drawn by this site"
      : data === "demo"
        ? "demo data instead of yours"
        : data === "waiting"
          ? "waiting for your consent to use your data"
          : "your live data";
  const header = (
    <>
      {/* The draft names itself: isolated, a right-to-left name cannot take "Watching" with it. */}
      <h1 id="watch-title">
        Watching <bdi>{name}</bdi>
      </h1>
      <p className={`${styles.meta} muted`} data-testid="provenance">
        Revision <span data-testid="revision">{view.revision}</span> · {dataText} · updated <RelativeTime ms={view.updatedAt} />
      </p>
      {saver ? (
        <div className={styles.save}>
          <SaveToSpace
            handle={saver.handle}
            csrf={saver.csrf}
            suggested={view.dash ?? htmlTitle(view.html)}
            html={view.html}
            note={`From playground draft revision ${view.revision}`}
            saved={savedRef}
            onSaved={setSavedRef}
          />
        </div>
      ) : null}
    </>
  );
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
      header={header}
      status={<ConnectionState connection={connection} />}
      paramsNotice={noticeShown ? paramsNotice : null}
      // A static render is a picture of the address as given: nothing there to change.
      paramBar={staticRender ? null : <ParamBar reads={paramReads} params={params} onApply={applyParams} />}
      footer={footer}
    >
      {safe ? (
        <SafeView path={`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`} revision={view.revision} title={name} onInteractive={() => setInteractive(true)} params={params} picture={false} />
      ) : live ? (
        <ConsentedFrame
          html={view.html}
          title={`Dashboard: ${name}`}
          author={{ kind: "draft" }}
          reads={reads}
          // Signed out, there is no data of the viewer's to protect: they see their own 401s.
          signedIn={signedIn}
          demo={{ scenario: view.scenario, examples: view.examples }}
          onDataChange={setData}
          frame={{ onRequest, onReport, reportPage: "watch", renderKey: view.revision, standby: !staticRender, fit: true, bare: kiosk.kiosk, params }}
        />
      ) : (
        <DashboardFrame
          html={view.html}
          data={{ mode: "demo", scenario: view.scenario, examples: view.examples }}
          onRequest={onRequest}
          onReport={onReport}
          reportPage="watch"
          renderKey={view.revision}
          standby={!staticRender}
          // The frame takes its content's height and the page scrolls, so a full-page screenshot
          // of a static render is the whole dashboard.
          fit
          bare={kiosk.kiosk}
          params={params}
          title={`Dashboard: ${name}`}
        />
      )}
    </ViewerShell>
  );
}


function ConnectionState({ connection }: { connection: Connection }) {
  const [text, cls] =
    connection.kind === "live"
      ? ["live", styles.live]
      : connection.kind === "reconnecting"
        ? ["reconnecting", styles.reconnecting]
        : connection.kind === "stale"
          ? [`not updating since ${clock(connection.since)}`, styles.stale]
          : connection.kind === "static"
            ? ["rendered once, not following updates", ""]
            : ["connecting", ""];
  return (
    <p className={`${styles.state} ${cls}`} role="status" aria-live="polite" data-testid="connection-state" data-state={connection.kind}>
      {text}
    </p>
  );
}

function RequestLog({ entries }: { entries: RequestLogEntry[] }) {
  return (
    <details className={styles.log} data-testid="request-log">
      <summary>Requests ({entries.length})</summary>
      {entries.length === 0 ? (
        <p className="muted">The dashboard has not asked for any data yet.</p>
      ) : (
        <table>
          <caption className="muted">Newest first</caption>
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">Data</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e, i) => (
              <tr key={`${e.at}-${i}`} data-testid="request-log-entry">
                <td className={styles.path}>{e.path}</td>
                <td className={e.status >= 400 ? styles.bad : undefined}>{e.status}</td>
                <td>{e.ms} ms</td>
                <td>{e.mode}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
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

/** The variants forced over the scenario, as the provenance line names them (the first three, then a count). */
function forcedText(examples: Record<string, string>): string {
  const forced = Object.entries(examples);
  if (forced.length === 0) return "";
  const named = forced.slice(0, 3).map(([path, variant]) => `${path} forced to ${variant}`);
  return ` · ${named.join(", ")}${forced.length > 3 ? ` and ${forced.length - 3} more` : ""}`;
}

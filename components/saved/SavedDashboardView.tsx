"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { ConsentedFrame } from "@/components/dashboard-frame/ConsentedFrame";
import { SafeView, type DrawingAnswer } from "./SafeView";
import { FreezeSnapshot } from "./FreezeSnapshot";
import type { RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { DraftReads } from "@/lib/check/reads";
import { useInteractive } from "@/components/interactive";
import { UpdatedState } from "@/components/viewer/UpdatedState";
import { ViewerShell } from "@/components/viewer/ViewerShell";
import { ParamBar } from "@/components/viewer/ParamBar";
import { useKiosk } from "@/components/viewer/useKiosk";
import type { DashboardParams } from "@/lib/frame/params";
import { humanPost, postJson } from "./human-fetch";
import { PLAYGROUND_HANDOFF_PATH, handOver } from "./handoff";
import { accessProblemOf, accessProblems, type AccessProblem } from "./access-problem";
import styles from "./saved.module.css";

interface SavedViewProps {
  path: string;
  title: string;
  owner: { handle: string; name: string };
  latest: { revision: number; savedAt: string };
  shown: { revision: number; savedAt: string; html: string };
  history: { revision: number; title: string; note: string | null; savedAt: string }[];
  /** What the shown revision reads; for the viewer's own dashboards, nothing is checked. */
  reads: DraftReads;
  viewer: { csrf: string; isOwner: boolean; trusted: boolean; starred: boolean; isHome: boolean };
  /** Opened with `?kiosk=1`: the dashboard alone. */
  kiosk?: boolean;
  /** The address's `p.*` parameters, bounded, and the sentence naming those dropped. */
  params?: DashboardParams;
  paramsNotice?: string | null;
  /** The parameter names the shown revision's code reads, offered as inputs. */
  paramReads?: readonly string[];
}

/**
 * A dashboard left open is drawn again this often (its reads made afresh), while the page is
 * shown: a wall screen stays current, a tab in the background costs nothing.
 */
const SAVED_REFRESH_MINUTES = 5;

const NO_READS: readonly string[] = [];

const When = ({ iso }: { iso: string }) => <RelativeTime ms={Date.parse(iso)} />;

function ProblemText({ problem }: { problem: AccessProblem }) {
  switch (problem.kind) {
    case "permission":
      return (
        <>
          This dashboard reads {problem.reads}; your account lacks <code>{problem.permission}</code>, so the parts that need it stay empty. An admin can
          grant it, or you can look at it with demo data.
        </>
      );
    case "connection":
      return (
        <>
          This dashboard reads {problem.reads} through a tool you have not connected yet. <Link href="/connections">Connect it on Connections</Link>,
          then reload this page.
        </>
      );
    case "forbidden":
      return <>Some of what this dashboard reads is not available to your account, so parts of it stay empty.</>;
  }
}

/** A saved dashboard: its header and actions, the frame on the viewer's own live data, its history. */
export function SavedDashboardView(props: SavedViewProps) {
  const { path, title, owner, latest, shown, history, viewer, reads, paramsNotice = null, paramReads = NO_READS } = props;
  // The address's parameters at first, then what the parameter bar applies.
  const [params, setParams] = useState<DashboardParams>(() => props.params ?? {});
  const [noticeShown, setNoticeShown] = useState(true);
  const kiosk = useKiosk(props.kiosk ?? false);
  // Each draw of the dashboard has its own key; a new one starts it again from its bootstrap.
  const [draw, setDraw] = useState(0);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [data, setData] = useState<"live" | "demo" | "waiting">("live");
  const router = useRouter();
  const [starred, setStarred] = useState(viewer.starred);
  const [isHome, setIsHome] = useState(viewer.isHome);
  const [busy, setBusy] = useState<string | null>(null);
  const ready = useInteractive() && busy === null;
  // Someone else's code the viewer has not chosen to trust is drawn by the site (the safe view)
  // until they ask for it interactive, which leads to the consent gate.
  const [interactive, setInteractive] = useState(false);
  const safe = !viewer.isOwner && !viewer.trusted && !interactive;
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [problems, setProblems] = useState<AccessProblem[]>([]);
  const old = shown.revision !== latest.revision;
  // On a phone the actions past Star wait under More, so the dashboard starts near the top.
  const [moreOpen, setMoreOpen] = useState(false);
  const moreToggle = useRef<HTMLButtonElement>(null);
  const historyBox = useRef<HTMLDetailsElement>(null);
  const showHistory = () => {
    const box = historyBox.current;
    if (!box) return;
    box.open = true;
    box.scrollIntoView({ block: "start" });
    box.querySelector("summary")?.focus({ preventScroll: true });
  };

  const onRequest = useCallback((entry: RequestLogEntry) => {
    const problem = accessProblemOf(entry);
    if (!problem) return;
    setProblems((cur) => (cur.some((p) => JSON.stringify(p) === JSON.stringify(problem)) ? cur : [...cur, problem]));
  }, []);
  // The drawing's reads were the viewer's own, answered by their API: the same problems apply.
  const onDrawnAnswers = useCallback((answers: readonly DrawingAnswer[]) => {
    setProblems(accessProblems(answers.map((a) => ({ path: a.path, status: a.status, mode: "live" as const }))));
  }, []);
  const onDataChange = useCallback((next: "live" | "demo" | "waiting") => {
    setData(next);
    // Another run of the dashboard, on other data: what the last one met no longer applies.
    setProblems([]);
  }, []);
  const refresh = useCallback(() => {
    setRefreshing(true);
    setProblems([]);
    setDraw((n) => n + 1);
    // A newer revision saved meanwhile comes with the page's data; a pinned revision stays.
    if (!old) router.refresh();
  }, [old, router]);
  const onReport = useCallback(() => {
    setUpdatedAt(Date.now());
    setRefreshing(false);
  }, []);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") refresh();
    }, SAVED_REFRESH_MINUTES * 60_000);
    return () => clearInterval(timer);
  }, [refresh]);
  // Declined or not yet agreed, nothing renders to wait for.
  const drawing = refreshing && data !== "waiting";

  const liveText = problems.length > 0 ? "your data, where your account may read it" : "your live data";

  const act = async (name: string, run: () => Promise<{ ok: true } | { ok: false; message: string }>, done: string) => {
    setBusy(name);
    setMessage(null);
    const res = await run();
    setBusy(null);
    setMessage(res.ok ? { kind: "ok", text: done } : { kind: "error", text: res.message });
    return res.ok;
  };

  const toggleStar = () =>
    act(
      "star",
      async () => {
        const res = await postJson("/account/favourites", viewer.csrf, starred ? { op: "remove", href: path } : { op: "add", href: path, label: title });
        if (res.ok) setStarred(!starred);
        return res;
      },
      starred ? "Removed from your favourites." : "Added to your favourites.",
    );

  const toggleHome = () =>
    act(
      "home",
      async () => {
        const res = await postJson("/account/home", viewer.csrf, { path: isHome ? null : path });
        if (res.ok) {
          setIsHome(!isHome);
          // The site header links the start page only while a home is set.
          router.refresh();
        }
        return res;
      },
      isHome ? "Home cleared: / shows the start page again." : "This dashboard is now your home: / opens it.",
    );

  const restore = (revision: number) =>
    act(
      `restore-${revision}`,
      async () => {
        const source = await fetch(`${path}/source?revision=${revision}`, { cache: "no-store" });
        if (!source.ok) return { ok: false, message: `Revision ${revision} could not be read (${source.status}).` };
        const res = await humanPost<{ revision: number }>(path, viewer.csrf, await source.text(), "text/html; charset=utf-8", {
          "x-save-note": `Restored from revision ${revision}`,
        });
        if (res.ok) router.push(path);
        router.refresh();
        return res;
      },
      `Revision ${revision} restored as a new revision.`,
    );

  const openInPlayground = () => {
    handOver(sessionStorage, {
      html: shown.html,
      slug: path.split("/").pop() ?? "",
      revision: shown.revision,
      owner,
      own: viewer.isOwner,
      dataMode: data === "live" ? "live" : "demo",
    });
    router.push(PLAYGROUND_HANDOFF_PATH);
  };

  const header = (
    <>
      {/* The title and the author's name are theirs: isolated, neither can reorder what is around it. */}
      <h1 id="saved-title">
        <bdi>{title}</bdi>
      </h1>
      <p className="muted" data-testid="saved-meta">
        By <bdi>{owner.name}</bdi> (<a href={`/~/${owner.handle}`}>/~/{owner.handle}</a>) · revision <span data-testid="saved-revision">{shown.revision}</span> · saved{" "}
        <When iso={shown.savedAt} /> ·{" "}
        {data === "live" ? liveText : data === "demo" ? "demo data instead of yours" : "waiting for your consent to use your data"}
      </p>
      {viewer.isOwner ? <FreezeSnapshot path={path} revision={shown.revision} csrf={viewer.csrf} /> : null}
      <p role="status" className={styles.message}>
        {message ? <span className={message.kind === "error" ? "error-text" : undefined}>{message.text}</span> : null}
      </p>
      {old ? (
        <p className={styles.notice} data-testid="old-revision">
          You are looking at revision {shown.revision}; the latest is {latest.revision}. <a href={path}>Show the latest</a>
          {viewer.isOwner ? (
            <>
              {" "}
              or{" "}
              <button type="button" onClick={() => void restore(shown.revision)} disabled={!ready}>
                Restore revision {shown.revision}
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      {problems.length > 0 && data === "live" ? (
        <div className={styles.problem} role="status" data-testid="saved-problem">
          {problems.map((p) => (
            <p key={JSON.stringify(p)}>
              <ProblemText problem={p} />
            </p>
          ))}
        </div>
      ) : null}
    </>
  );
  const actions = (
    <div
      className={`${styles.actions} control-row`}
      role="group"
      aria-label="Dashboard actions"
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !moreOpen) return;
        e.stopPropagation();
        setMoreOpen(false);
        moreToggle.current?.focus();
      }}
    >
      <button type="button" aria-pressed={starred} onClick={toggleStar} disabled={!ready}>
        {/* On a phone the star alone; its name stays whole for assistive technology. */}
        {starred ? "★" : "☆"}
        <span className={styles.wideText}>{starred ? " Starred" : " Star"}</span>
      </button>
      <button ref={moreToggle} type="button" className={styles.moreToggle} aria-expanded={moreOpen} aria-controls="saved-more" onClick={() => setMoreOpen((o) => !o)}>
        More <span aria-hidden="true">▾</span>
      </button>
      {/* Wide, these sit in the row as if the wrapper were not there; on a phone they open under More. */}
      <div id="saved-more" className={styles.more} data-open={moreOpen || undefined}>
        <button type="button" aria-pressed={isHome} onClick={toggleHome} disabled={!ready}>
          {isHome ? "Your home" : "Set as home"}
        </button>
        <a className="button" href={`${path}/source?revision=${shown.revision}`}>
          View source
        </a>
        {isHome ? (
          <Link className="button" href="/?start">
            Start page
          </Link>
        ) : null}
        <button type="button" onClick={openInPlayground} disabled={!ready}>
          Open in playground
        </button>
        <button
          type="button"
          aria-controls="saved-history"
          onClick={() => {
            setMoreOpen(false);
            showHistory();
          }}
        >
          History
        </button>
      </div>
    </div>
  );
  const footer = (
    <details ref={historyBox} id="saved-history" className={styles.history} data-testid="history">
      <summary>History ({history.length} {history.length === 1 ? "revision" : "revisions"})</summary>
      <ol reversed>
        {history.map((r) => (
          <li key={r.revision} data-testid="history-entry">
            <span>
              Revision {r.revision} · <When iso={r.savedAt} />
              {r.note ? <span className="muted"> · {r.note}</span> : null}
              {r.revision === shown.revision ? <strong> (shown)</strong> : null}
            </span>{" "}
            {r.revision !== shown.revision ? <a href={`${path}?revision=${r.revision}`}>View revision {r.revision}</a> : null}
            {viewer.isOwner && r.revision !== latest.revision ? (
              <button type="button" onClick={() => void restore(r.revision)} disabled={!ready}>
                Restore revision {r.revision}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
  return (
    <ViewerShell
      kiosk={kiosk}
      labelledBy="saved-title"
      header={header}
      actions={actions}
      status={<UpdatedState updatedAt={updatedAt} refreshing={drawing} data={data} onRefresh={refresh} everyMinutes={SAVED_REFRESH_MINUTES} />}
      paramsNotice={noticeShown ? paramsNotice : null}
      paramBar={
        <ParamBar
          reads={paramReads}
          params={params}
          onApply={(next) => {
            // The address now holds only what was passed: the notice about it no longer applies.
            setNoticeShown(false);
            setProblems([]);
            setParams(next);
          }}
        />
      }
      footer={footer}
    >
      {safe ? (
        <SafeView path={path} revision={shown.revision} title={title} onInteractive={() => {
            setProblems([]);
            setInteractive(true);
          }}
          onAnswers={onDrawnAnswers}
          params={params} />
      ) : (
      <ConsentedFrame
        html={shown.html}
        title={`Dashboard: ${title}`}
        author={viewer.isOwner ? { kind: "viewer" } : { kind: "space", handle: owner.handle, name: owner.name, trusted: viewer.trusted }}
        reads={reads}
        signedIn
        onDataChange={onDataChange}
        onTrust={async () => {
          const res = await postJson("/account/trust", viewer.csrf, { op: "add", handle: owner.handle });
          return res.ok ? null : res.message;
        }}
        frame={{ fit: true, onRequest, onReport, renderKey: draw, bare: kiosk.kiosk, params }}
      />
      )}
    </ViewerShell>
  );
}

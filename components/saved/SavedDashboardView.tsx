"use client";

import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { ConsentedFrame } from "@/components/dashboard-frame/ConsentedFrame";
import { SafeView, type DrawingAnswer } from "./SafeView";
import type { RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import type { DraftReads } from "@/lib/check/reads";
import { useInteractive } from "@/components/interactive";
import { UpdatedState } from "@/components/viewer/UpdatedState";
import { ViewerShell } from "@/components/viewer/ViewerShell";
import { ParamBar } from "@/components/viewer/ParamBar";
import { useKiosk } from "@/components/viewer/useKiosk";
import type { DashboardParams } from "@/lib/frame/params";
import { postJson } from "./human-fetch";
import { PLAYGROUND_HANDOFF_PATH, handOver } from "./handoff";
import { accessProblemOf, accessProblems, type AccessProblem } from "./access-problem";
import { SavedHeader } from "./SavedHeader";
import { SavedActions } from "./SavedActions";
import { SavedHistory } from "./SavedHistory";
import { useSavedActions } from "./useSavedActions";
import { SAVED_REFRESH_MINUTES, useSavedRefresh } from "./useSavedRefresh";

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

const NO_READS: readonly string[] = [];

/** A saved dashboard: its header and actions, the frame on the viewer's own live data, its history. */
export function SavedDashboardView(props: SavedViewProps) {
  const { path, title, owner, latest, shown, history, viewer, reads, paramsNotice = null, paramReads = NO_READS } = props;
  // The address's parameters at first, then what the parameter bar applies.
  const [params, setParams] = useState<DashboardParams>(() => props.params ?? {});
  const [noticeShown, setNoticeShown] = useState(true);
  const kiosk = useKiosk(props.kiosk ?? false);
  const [data, setData] = useState<"live" | "demo" | "waiting">("live");
  const router = useRouter();
  const { starred, isHome, busy, message, toggleStar, toggleHome, restore } = useSavedActions({ path, title, viewer });
  const ready = useInteractive() && busy === null;
  // Someone else's code the viewer has not chosen to trust is drawn by the site (the safe view)
  // until they ask for it interactive, which leads to the consent gate.
  const [interactive, setInteractive] = useState(false);
  const safe = !viewer.isOwner && !viewer.trusted && !interactive;
  const [problems, setProblems] = useState<AccessProblem[]>([]);
  const clearProblems = useCallback(() => setProblems([]), []);
  const old = shown.revision !== latest.revision;
  const { draw, updatedAt, refreshing, refresh, onReport } = useSavedRefresh(old, clearProblems);
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
  // Declined or not yet agreed, nothing renders to wait for.
  const drawing = refreshing && data !== "waiting";

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

  return (
    <ViewerShell
      kiosk={kiosk}
      labelledBy="saved-title"
      header={
        <SavedHeader path={path} title={title} owner={owner} latest={latest} shown={shown} viewer={viewer} data={data} problems={problems} message={message} ready={ready} restore={restore} />
      }
      actions={
        <SavedActions
          path={path}
          revision={shown.revision}
          starred={starred}
          isHome={isHome}
          ready={ready}
          toggleStar={toggleStar}
          toggleHome={toggleHome}
          openInPlayground={openInPlayground}
          showHistory={showHistory}
        />
      }
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
      footer={
        <SavedHistory boxRef={historyBox} path={path} history={history} shownRevision={shown.revision} latestRevision={latest.revision} isOwner={viewer.isOwner} ready={ready} restore={restore} />
      }
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

"use client";

import { ConsentedFrame } from "@/components/dashboard-frame/ConsentedFrame";
import { DashboardFrame, type RenderReportBody, type RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { SafeView } from "@/components/saved/SafeView";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import type { DraftView } from "@/lib/contract/playground";
import type { DashboardParams } from "@/lib/frame/params";

interface WatchFrameProps {
  id: string;
  view: DraftView;
  name: string;
  reads: DraftView["reads"];
  safe: boolean;
  signedIn: boolean;
  staticRender: boolean;
  bare: boolean;
  params: DashboardParams;
  onRequest: (entry: RequestLogEntry) => void;
  onReport: (body: RenderReportBody, key: string | number | undefined) => void;
  onDataChange: (data: "live" | "demo" | "waiting") => void;
  onInteractive: () => void;
}

/** The watched draft drawn: by the site (the safe view), behind the consent gate on live data, or in the frame on demo data. */
export function WatchFrame({ id, view, name, reads, safe, signedIn, staticRender, bare, params, onRequest, onReport, onDataChange, onInteractive }: WatchFrameProps) {
  const live = view.dataMode === "live";
  return safe ? (
    <SafeView path={`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`} revision={view.revision} title={name} onInteractive={onInteractive} params={params} picture={false} />
  ) : live ? (
    <ConsentedFrame
      html={view.html}
      title={`Dashboard: ${name}`}
      author={{ kind: "draft" }}
      reads={reads}
      // Signed out, there is no data of the viewer's to protect: they see their own 401s.
      signedIn={signedIn}
      demo={{ scenario: view.scenario, examples: view.examples }}
      onDataChange={onDataChange}
      frame={{ onRequest, onReport, reportPage: "watch", renderKey: view.revision, standby: !staticRender, fit: true, bare, params }}
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
      bare={bare}
      params={params}
      title={`Dashboard: ${name}`}
    />
  );
}

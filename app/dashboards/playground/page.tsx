// GET /dashboards/playground — write a dashboard, preview it live, share it with watchers.
import type { Metadata } from "next";
import { PlaygroundEditor } from "@/components/editor/PlaygroundEditor";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { dashboardExamples } from "@/demo/examples";

export const metadata: Metadata = { title: "Playground", robots: { index: false, follow: false } };

export default function PlaygroundPage() {
  return (
    <>
      <FrameHostPolicy />
      <PlaygroundEditor examples={dashboardExamples} />
    </>
  );
}

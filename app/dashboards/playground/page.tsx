// GET /dashboards/playground — write a dashboard, preview it live, share it with watchers.
import type { Metadata } from "next";
import { PlaygroundEditor } from "@/components/editor/PlaygroundEditor";
import { dashboardExamples } from "@/demo/examples";

export const metadata: Metadata = { title: "Playground", robots: { index: false, follow: false } };

export default function PlaygroundPage() {
  return (
    <>
      {/* The preview frame may navigate itself; this keeps every navigation it makes on this
          site, so it cannot carry data off in a URL. */}
      <meta httpEquiv="Content-Security-Policy" content="frame-src 'self'" />
      <PlaygroundEditor examples={dashboardExamples} />
    </>
  );
}

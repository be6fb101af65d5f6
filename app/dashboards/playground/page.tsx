// GET /dashboards/playground — write a dashboard, preview it live, share it with watchers.
// `?example=<id>` starts from that example of the gallery.
import type { Metadata } from "next";
import { PlaygroundEditor } from "@/components/editor/PlaygroundEditor";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { currentSession } from "@/lib/root/current";
import { editorExamples as examples } from "./editor-examples";

export const metadata: Metadata = { title: "Playground", robots: { index: false, follow: false } };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function PlaygroundPage({ searchParams }: Props) {
  const { example, open } = await searchParams;
  // Signed-in people may save from the editor; for anyone else the action is simply not there.
  const session = await currentSession();
  return (
    <>
      <FrameHostPolicy />
      <PlaygroundEditor
        examples={examples}
        requestedExample={typeof example === "string" ? example : Array.isArray(example) ? example[0] : undefined}
        openHandoff={open === "saved"}
        saver={session ? { handle: session.user.handle, csrf: session.csrf } : null}
      />
    </>
  );
}

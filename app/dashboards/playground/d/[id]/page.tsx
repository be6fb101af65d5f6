// GET /dashboards/playground/d/<read_id> — a draft's own address in the editor: its latest
// revision, editable in the browser that holds its write capability, read-only with Fork elsewhere.
// The address carries only the read id; the write capability never reaches the server's pages.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PlaygroundEditor } from "@/components/editor/PlaygroundEditor";
import { READ_ID_PATTERN } from "@/components/editor/local-drafts";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { app } from "@/lib/root";
import { currentSession } from "@/lib/root/current";
import { draftExists } from "@/lib/drafts/drafts";
import { editorExamples } from "../../editor-examples";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playground draft", robots: { index: false, follow: false } };

interface Props {
  params: Promise<{ id: string }>;
}

export default async function PlaygroundDraftPage({ params }: Props) {
  const { id } = await params;
  // A link to no draft is a missing page (HTTP 404), as on the watch page. The draft itself is
  // read by the editor through the public read route, whose limits hold for every reader.
  if (!READ_ID_PATTERN.test(id) || !(await draftExists((await app().playground()).context, id))) notFound();
  const session = await currentSession();
  return (
    <>
      <FrameHostPolicy />
      <PlaygroundEditor examples={editorExamples} draftId={id} saver={session ? { handle: session.user.handle, csrf: session.csrf } : null} />
    </>
  );
}

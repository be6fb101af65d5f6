// GET /dashboards/playground/d/<read_id> — a draft's own address in the editor: its latest
// revision, editable in the browser that holds its write capability, read-only with Fork elsewhere.
// The address carries only the read id; the write capability never reaches the server's pages.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PlaygroundEditor } from "@/components/editor/PlaygroundEditor";
import type { OpenedDraft } from "@/components/editor/useDurableDraft";
import { READ_ID_PATTERN } from "@/components/editor/local-drafts";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { app } from "@/lib/app";
import { currentSession } from "@/lib/app/current";
import { ApiError } from "@/lib/contract/errors";
import { readDraft } from "@/lib/playground/drafts";
import { htmlTitle } from "@/lib/saved/slug";
import { editorExamples } from "../../editor-examples";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playground draft", robots: { index: false, follow: false } };

interface Props {
  params: Promise<{ id: string }>;
}

async function openDraft(id: string): Promise<OpenedDraft | null> {
  if (!READ_ID_PATTERN.test(id)) return null;
  try {
    const draft = await readDraft((await app().playground()).context, id);
    return {
      id: draft.id,
      revision: draft.revision,
      mode: draft.dataMode,
      scenario: draft.scenario,
      examples: draft.examples,
      dash: draft.dash,
      starter: { id: `draft-${draft.id}`, label: draft.dash ?? htmlTitle(draft.html) ?? "draft", description: "", html: draft.html, warnings: draft.warnings },
    };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export default async function PlaygroundDraftPage({ params }: Props) {
  const { id } = await params;
  const opened = await openDraft(id);
  // A link to no draft is a missing page (HTTP 404), as on the watch page.
  if (!opened) notFound();
  const session = await currentSession();
  return (
    <>
      <FrameHostPolicy />
      <PlaygroundEditor examples={editorExamples} opened={opened} saver={session ? { handle: session.user.handle, csrf: session.csrf } : null} />
    </>
  );
}

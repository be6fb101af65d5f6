// GET /dashboards/playground/watch/<read_id> — a human watches a draft render live.
import type { Metadata } from "next";
import { WatchDraft } from "@/components/watch/WatchDraft";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { currentSession } from "@/lib/app/current";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Watch a draft", robots: { index: false, follow: false } };

interface Props {
  params: Promise<{ id: string }>;
}

export default async function WatchPage({ params }: Props) {
  const { id } = await params;
  // Signed-in people may save what they watch; for anyone else the action is simply not there.
  const session = await currentSession();
  return (
    <>
      <FrameHostPolicy />
      <WatchDraft id={id} signedIn={session !== null} saver={session ? { handle: session.user.handle, csrf: session.csrf } : null} />
    </>
  );
}

// GET /dashboards/playground/watch/<read_id> — a human watches a draft render live.
import type { Metadata } from "next";
import { WatchDraft } from "@/components/watch/WatchDraft";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Watch a draft", robots: { index: false, follow: false } };

interface Props {
  params: Promise<{ id: string }>;
}

export default async function WatchPage({ params }: Props) {
  const { id } = await params;
  return (
    <>
      <FrameHostPolicy />
      <WatchDraft id={id} />
    </>
  );
}

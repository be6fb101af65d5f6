// GET /dashboards/playground/watch/<read_id> — a human watches a draft render live.
import type { Metadata } from "next";
import { WatchDraft } from "@/components/watch/WatchDraft";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Watch a draft", robots: { index: false, follow: false } };

interface Props {
  params: Promise<{ id: string }>;
}

export default async function WatchPage({ params }: Props) {
  const { id } = await params;
  return (
    <>
      {/* The dashboard frame may navigate itself; this keeps every navigation it makes on this
          site, so it cannot carry data off in a URL. */}
      <meta httpEquiv="Content-Security-Policy" content="frame-src 'self'" />
      <WatchDraft id={id} />
    </>
  );
}

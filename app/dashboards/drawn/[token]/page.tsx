// GET /dashboards/drawn/<token> — a dashboard the service is drawing on a viewer's data, for the
// service's own renderer alone (lib/saved/drawings.ts): the frame and broker a viewer's page has,
// its reads sent to the drawing's own reads, the page marked once it has settled. Unknown, or
// once the drawing is over, the token is not found.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { RenderDrawing } from "@/components/watch/RenderDraft";
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Drawing", robots: { index: false, follow: false } };

export default async function DrawingPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const page = /^[A-Za-z0-9_-]{32}$/.test(token) ? app().drawings.pageOf(token) : null;
  if (!page) notFound();
  return (
    <>
      <FrameHostPolicy />
      <RenderDrawing html={page.html} token={token} title={`Dashboard: ${page.title}`} params={page.params} />
    </>
  );
}

// GET /dashboards/playground/watch/<read_id> — a human watches a draft render live;
// with ?static=1, the current revision renders once, for a screenshot.
import type { Metadata } from "next";
import { cache } from "react";
import { notFound } from "next/navigation";
import { WatchDraft } from "@/components/watch/WatchDraft";
import { RenderLatch } from "@/components/watch/render-latch";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { app } from "@/lib/app";
import { currentSession } from "@/lib/app/current";
import { draftNaming } from "@/lib/drafts/drafts";
import { droppedText, parseDashboardParams } from "@/lib/frame/params";

export const dynamic = "force-dynamic";

// Read once per request for both the page and its title.
const naming = cache(async (id: string) => (/^[A-Za-z0-9_-]{16,128}$/.test(id) ? draftNaming((await app().playground()).context, id) : undefined));

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// The tab says what the header says from the first byte; the page follows renames as revisions arrive.
export async function generateMetadata({ params }: Pick<Props, "params">): Promise<Metadata> {
  const found = await naming((await params).id);
  const title = found ? `Watching ${found.name ?? "untitled draft"}` : "Watch a draft";
  return { title, robots: { index: false, follow: false } };
}

export default async function WatchPage({ params, searchParams }: Props) {
  const { id } = await params;
  const query = await searchParams;
  const staticRender = query.static === "1";
  const dashboard = parseDashboardParams(query);
  // A link to no draft is a missing page (HTTP 404), not a page that says so with 200.
  const found = await naming(id);
  if (!found) notFound();
  // Signed-in people may save what they watch; for anyone else the action is simply not there.
  const session = await currentSession();
  return (
    <>
      <FrameHostPolicy />
      {staticRender ? <RenderLatch /> : null}
      <WatchDraft
        id={id}
        name={found.name}
        signedIn={session !== null}
        saver={session ? { handle: session.user.handle, csrf: session.csrf } : null}
        staticRender={staticRender}
        kiosk={query.kiosk === "1"}
        // A plain object: a server component's props cross to the browser as JSON.
        params={{ ...dashboard.params }}
        paramsNotice={droppedText(dashboard.dropped)}
      />
    </>
  );
}

// GET /dashboards/playground/watch/<read_id> — a human watches a draft render live;
// with ?static=1, the current revision renders once, for a screenshot.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { cache } from "react";
import { notFound } from "next/navigation";
import { WatchDraft } from "@/components/watch/WatchDraft";
import { RenderLatch } from "@/components/watch/render-latch";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { app } from "@/lib/root";
import { currentSession } from "@/lib/root/current";
import { draftNaming } from "@/lib/drafts/drafts";
import { droppedText, parseDashboardParams } from "@/lib/frame/params";
import { pageOrigin } from "@/lib/http/origin";

export const dynamic = "force-dynamic";

// Read once per request for both the page and its title.
const naming = cache(async (id: string) => (/^[A-Za-z0-9_-]{16,128}$/.test(id) ? draftNaming((await app().playground()).context, id) : undefined));

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// The tab says what the header says from the first byte; the page follows renames as revisions arrive.
// A link to it shows the draft's name and, for a demo draft, its picture (the link already makes
// it public; a live draft's would need someone's data, so it has none).
export async function generateMetadata({ params }: Pick<Props, "params">): Promise<Metadata> {
  const { id } = await params;
  const found = await naming(id);
  const title = found ? `Watching ${found.name ?? "untitled draft"}` : "Watch a draft";
  const robots = { index: false, follow: false };
  if (!found) return { title, robots };
  const name = found.name ?? "Untitled draft";
  const origin = pageOrigin(await headers(), app().config.publicOrigin, app().config.allowedHosts);
  const preview = origin ? await (await app().playground()).renders.preview(id) : null;
  const images = origin && preview ? [{ url: `${origin}${preview.path}`, width: preview.width, height: preview.height, alt: `${name}, drawn on demo data` }] : undefined;
  return {
    title,
    robots,
    openGraph: { type: "website", title: name, description: images ? "A dashboard draft, drawn on demo data." : undefined, images },
    twitter: { card: images ? "summary_large_image" : "summary", title: name, images },
  };
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

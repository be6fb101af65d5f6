// GET /~/<handle>/<slug> — a saved dashboard on the viewer's own live data. POST to this path
// saves (see proxy.ts); this page only shows.
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { SavedDashboardView } from "@/components/saved/SavedDashboardView";
import { currentSession } from "@/lib/root/current";
import { favouritesOf, homeOf } from "@/lib/auth/users";
import { revisionParam, segment } from "@/lib/saved/params";
import { loadDashboard, revisionsOf } from "@/lib/saved/store";
import { trusts } from "@/lib/saved/trust";
import { app } from "@/lib/root";
import { droppedText, parseDashboardParams } from "@/lib/frame/params";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ handle: string; slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { handle, slug } = await params;
  const path = `/~/${segment(handle)}/${segment(slug)}`;
  const robots = { index: false, follow: false };
  // The tab reads as the header does: the dashboard's title. Only someone signed in may learn it.
  if (!(await currentSession())) return { title: path, robots };
  const dashboard = await loadDashboard(await app().db(), segment(handle), segment(slug), revisionParam((await searchParams).revision));
  return { title: dashboard ? dashboard.title : path, robots };
}

export default async function SavedDashboardPage({ params, searchParams }: Props) {
  const { handle: rawHandle, slug: rawSlug } = await params;
  const handle = segment(rawHandle);
  const slug = segment(rawSlug);
  const query = await searchParams;
  const revision = revisionParam(query.revision);
  const session = await currentSession();
  // The whole address comes back after signing in: a wall screen's kiosk mode and window with it.
  if (!session) redirect(`/signin?next=${encodeURIComponent(`/~/${handle}/${slug}${searchOf(query)}`)}`);
  const db = await app().db();
  const dashboard = await loadDashboard(db, handle, slug, revision);
  if (!dashboard) notFound();
  const owner = dashboard.owner;
  const isOwner = owner.id === session.user.id;
  const [history, favourites, home, trusted] = await Promise.all([
    revisionsOf(db, owner.id, slug),
    favouritesOf(db, session.user.id),
    homeOf(db, session.user.id),
    trusts(db, session.user.id, owner.id),
  ]);
  // Someone else's code reads only what its manifest names, trusted or not.
  const dashboardParams = parseDashboardParams(query);
  const reads = isOwner ? { paths: [], complete: true } : app().savedReads(owner.id, slug, dashboard.shown.revision, dashboard.shown.html);
  return (
    <>
      <FrameHostPolicy />
      <SavedDashboardView
        path={dashboard.path}
        title={dashboard.title}
        owner={{ handle: owner.handle, name: owner.name }}
        latest={{ revision: dashboard.revision, savedAt: dashboard.savedAt }}
        shown={{ revision: dashboard.shown.revision, savedAt: dashboard.shown.savedAt, html: dashboard.shown.html }}
        history={history}
        reads={reads}
        viewer={{
          csrf: session.csrf,
          isOwner,
          trusted,
          starred: favourites.some((f) => f.href === dashboard.path),
          isHome: home === dashboard.path,
        }}
        kiosk={query.kiosk === "1"}
        // A plain object: a server component's props cross to the browser as JSON.
        params={{ ...dashboardParams.params }}
        paramsNotice={droppedText(dashboardParams.dropped)}
        paramReads={app().savedParamReads(owner.id, slug, dashboard.shown.revision, dashboard.shown.html)}
      />
    </>
  );
}

/** The query again as the address had it, `?` included, or nothing. */
function searchOf(query: Record<string, string | string[] | undefined>): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
  }
  const text = out.toString();
  return text ? `?${text}` : "";
}

// GET /~/<handle> — a person's saved dashboards, newest first.
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { TrustedAuthors } from "@/components/saved/TrustedAuthors";
import { currentSession } from "@/lib/root/current";
import { trustedAuthors } from "@/lib/saved/trust";
import { segment } from "@/lib/saved/params";
import { listSpace, ownerByHandle } from "@/lib/saved/store";
import { app } from "@/lib/root";
import styles from "@/components/saved/saved.module.css";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ handle: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `/~/${segment((await params).handle)}`, robots: { index: false, follow: false } };
}

export default async function SpacePage({ params }: Props) {
  const handle = segment((await params).handle);
  const session = await currentSession();
  const user = session?.user;
  if (!session || !user) redirect(`/signin?next=${encodeURIComponent(`/~/${handle}`)}`);
  const db = await app().db();
  const owner = await ownerByHandle(db, handle);
  if (!owner) notFound();
  const dashboards = await listSpace(db, owner.id, owner.handle);
  const own = owner.id === user.id;
  const trusted = own ? await trustedAuthors(db, user.id) : [];
  return (
    <section aria-labelledby="space-title" className="stack">
      <h1 id="space-title">
        {own ? (
          "Your dashboards"
        ) : (
          <>
            <bdi>{owner.name}</bdi>&apos;s dashboards
          </>
        )}
      </h1>
      <p className="muted">
        /~/{owner.handle} · {dashboards.length} {dashboards.length === 1 ? "dashboard" : "dashboards"}, most recently saved first
      </p>
      {dashboards.length === 0 ? (
        <p data-testid="space-empty">
          {own ? (
            <>
              Nothing saved yet. Draft a dashboard in the <a href="/dashboards/playground">playground</a>, then use “Save to my
              space” on its watch page or in the editor.
            </>
          ) : (
            "Nothing saved here yet."
          )}
        </p>
      ) : (
        <ul className={styles.space} data-testid="space-list">
          {dashboards.map((d) => (
            <li key={d.slug} className="card">
              <a href={d.path}>
                <bdi>{d.title}</bdi>
              </a>
              <span className="muted">
                {d.slug} · revision {d.revision} · saved <RelativeTime ms={Date.parse(d.savedAt)} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {own ? <TrustedAuthors initial={trusted} csrf={session.csrf} returnTo={`/~/${owner.handle}`} /> : null}
      {own ? (
        <p>
          Your home page, favourites and trusted authors are together on <a href="/account">your account</a>.
        </p>
      ) : null}
    </section>
  );
}

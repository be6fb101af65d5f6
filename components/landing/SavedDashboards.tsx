import Link from "next/link";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Empty } from "./states";
import styles from "./landing.module.css";

interface SavedDashboard {
  path: string;
  title: string;
  revision: number;
  savedAt: string;
}

/** The person's saved dashboards, newest first as given; `spaceHref` is their `/~/<handle>`. */
export function SavedDashboards({ dashboards, spaceHref }: { dashboards: readonly SavedDashboard[]; spaceHref: string }) {
  return (
    <section className={`card ${styles.section}`} aria-labelledby="dashboards-title" data-testid="saved-dashboards">
      <div className={styles.sectionHeader}>
        <h2 id="dashboards-title">Your dashboards</h2>
        <p>
          <Link href={spaceHref}>All in your space</Link>
        </p>
      </div>
      {dashboards.length === 0 ? (
        <Empty>
          <p>No saved dashboards yet — open the playground, draft one and save it from the watch page.</p>
          <p>
            <Link href="/dashboards/playground">Open the playground</Link>
          </p>
        </Empty>
      ) : (
        <ul className={styles.list}>
          {dashboards.map((d) => {
            const saved = Date.parse(d.savedAt);
            return (
              <li key={d.path}>
                <Link href={d.path}>
                  <bdi>{d.title}</bdi>
                </Link>
                <p className="muted">
                  Revision {d.revision}
                  {Number.isFinite(saved) ? (
                    <>
                      {" "}
                      · saved <RelativeTime ms={saved} />
                    </>
                  ) : null}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

// GET / — the signed-in person's landing page, or what the product is when signed out.
import Link from "next/link";
import { redirect } from "next/navigation";
import { ConnectionStatus, type ConnectionItem } from "@/components/landing/ConnectionStatus";
import { CrmSummary } from "@/components/landing/CrmSummary";
import { Examples } from "@/components/landing/Examples";
import { Favourites } from "@/components/landing/Favourites";
import { FreshnessTable } from "@/components/landing/FreshnessTable";
import { SavedDashboards } from "@/components/landing/SavedDashboards";
import { SignedOut } from "@/components/landing/SignedOut";
import styles from "@/components/landing/landing.module.css";
import { currentSession } from "@/lib/root/current";
import { homeOf } from "@/lib/auth/users";
import { listSpace } from "@/lib/saved/store";
import { app } from "@/lib/root";
import { connectors } from "@/lib/connectors/registry";

export const dynamic = "force-dynamic";

// The CRM portal is synced for the organisation rather than connected per person, but it has a
// check of its own; it is listed after the personal connectors, as on /connections.
const connectionItems: ConnectionItem[] = [
  ...Object.values(connectors).map((d) => ({ slug: d.slug, title: d.title })),
  { slug: "crmportal", title: "CRM portal" },
];

/** How many of the person's dashboards the start page shows; the rest are in their space. */
const RECENT_DASHBOARDS = 6;

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function Landing({ searchParams }: Props) {
  const session = await currentSession();
  if (!session) return <SignedOut />;
  const { user, csrf } = session;
  const db = await app().db();
  // "/" goes to the person's home when they chose one; "/?start" is always this page.
  if ((await searchParams).start === undefined) {
    const home = await homeOf(db, user.id);
    if (home) redirect(home);
  }
  const dashboards = await listSpace(db, user.id, user.handle, RECENT_DASHBOARDS);

  return (
    <div className={styles.page}>
      <div className={styles.intro}>
        <h1>Welcome, {user.name}</h1>
        <p className="muted">
          Signed in as <strong>{user.email}</strong>
          {user.groups.length > 0 ? ` · groups: ${user.groups.join(", ")}` : ""}
        </p>
        <ul className={styles.links} aria-label="Get started">
          <li>
            <Link className="button primary" href="/dashboards/playground">
              Open the playground
            </Link>
          </li>
          <li>
            <Link className="button" href="/docs">
              API reference
            </Link>
          </li>
          <li>
            <Link className="button" href="/connections">
              Connect your tools
            </Link>
          </li>
        </ul>
      </div>

      <div className={styles.grid}>
        <Favourites csrf={csrf} />
        <SavedDashboards dashboards={dashboards} spaceHref={`/~/${encodeURIComponent(user.handle)}`} />
      </div>

      <CrmSummary />
      <FreshnessTable />
      <ConnectionStatus items={connectionItems} />
      <Examples />
    </div>
  );
}

import Link from "next/link";
import { StatusBadge } from "@/components/connections/StatusBadge";
import styles from "./landing.module.css";

export interface ConnectionItem {
  slug: string;
  title: string;
}

/** Each connector's live check as the signed-in person, the same check /connections runs. */
export function ConnectionStatus({ items }: { items: readonly ConnectionItem[] }) {
  return (
    <section className={`card ${styles.section}`} aria-labelledby="connection-status-title" data-testid="connection-status">
      <div className={styles.sectionHeader}>
        <h2 id="connection-status-title">Connections</h2>
        <p className="muted">Dashboards read these tools as you.</p>
      </div>
      <ul className={styles.connections}>
        {items.map((c) => (
          <li key={c.slug} data-testid={`connection-${c.slug}`}>
            <Link href="/connections">
              {c.title}
              <span className={styles.srOnly}> (manage on the Connections page)</span>
            </Link>
            <StatusBadge slug={c.slug} title={c.title} compact />
          </li>
        ))}
      </ul>
    </section>
  );
}

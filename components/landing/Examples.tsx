import Link from "next/link";
import { dashboardExamples } from "@/demo/examples";
import styles from "./landing.module.css";

/** The example dashboards, each opening in the playground editor. */
export function Examples() {
  return (
    <section className={`card ${styles.section}`} aria-labelledby="examples-title" data-testid="examples">
      <h2 id="examples-title">Examples</h2>
      <p className="muted">Start from a dashboard that already handles loading, waiting and errors well.</p>
      <ul className={styles.list}>
        {dashboardExamples.map((e) => (
          <li key={e.id}>
            <Link href={`/dashboards/playground?example=${encodeURIComponent(e.id)}`}>{e.label}</Link>
            <p className="muted">{e.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

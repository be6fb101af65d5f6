import Link from "next/link";
import { dashboardExamples } from "@/demo/examples";
import { examplePicture } from "@/demo/examples/pictures";
import styles from "./landing.module.css";

/** The example dashboards, each opening in the playground editor. */
export function Examples() {
  return (
    <section className={`card ${styles.section}`} aria-labelledby="examples-title" data-testid="examples">
      <h2 id="examples-title">Examples</h2>
      <p className="muted">Start from a dashboard that already handles loading, waiting and errors well.</p>
      <ul className={`${styles.list} ${styles.examples}`}>
        {dashboardExamples.map((e) => {
          const picture = examplePicture(e.id);
          return (
            <li key={e.id}>
              <Link href={`/dashboards/playground?example=${encodeURIComponent(e.id)}`} className={styles.exampleLink}>
                {/* The link's text names the example; the picture shows it, so it is not read out again. */}
                {/* eslint-disable-next-line @next/next/no-img-element -- made at the size shown and addressed by content; an optimiser would only re-encode it */}
                {picture ? <img src={picture.src} width={picture.width} height={picture.height} alt="" className={styles.examplePicture} loading="lazy" /> : null}
                {e.label}
              </Link>
              <p className="muted">{e.description}</p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

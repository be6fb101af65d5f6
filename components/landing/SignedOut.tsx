import Link from "next/link";
import styles from "./landing.module.css";

// Signed out, the page explains the product and offers sign-in; it makes no API calls, every
// one of which would answer 401.
export function SignedOut() {
  return (
    <div className={styles.page} data-testid="signed-out">
      <div className={styles.intro}>
        <h1>Dashboards</h1>
        <p>
          Draft a data dashboard as one HTML file, watch it render live against realistic demo data or your own, and save
          it for your team.
        </p>
        <p>
          <a className="button primary" href="/signin?next=/">
            Sign in
          </a>{" "}
          to see your dashboards, your CRM at a glance and your connected tools.
        </p>
      </div>
      <ul className={styles.pitch} aria-label="What you can do">
        <li className="card">
          <h2>Your data, one API</h2>
          <p>A read-only JSON API acts as you: your CRM, issue tracker, code hosting, calls and support conversations.</p>
        </li>
        <li className="card">
          <h2>Draft in the playground</h2>
          <p>
            No account needed: write a dashboard against demo data and share a watch link that updates live.{" "}
            <Link href="/dashboards/playground">Open the playground</Link>
          </p>
        </li>
        <li className="card">
          <h2>Safe by design</h2>
          <p>Dashboards only read, never write. Someone else&apos;s dashboard on your data is drawn by this site, its code never run in your browser, so nothing it reads can leave; it runs interactively only for your own code, authors you trust, or once you agree.</p>
        </li>
        <li className="card">
          <h2>Documented</h2>
          <p>
            Every endpoint, field and error is described in the <Link href="/docs">API reference</Link>.
          </p>
        </li>
      </ul>
    </div>
  );
}

"use client";

import { useEffect, useRef } from "react";
import { matchPath } from "@/lib/contract/match";
import type { DraftReads } from "@/lib/check/reads";
import styles from "./ConsentGate.module.css";

// What a viewer sees before a dashboard they did not write may read their live data. Until
// they choose, no frame exists: no code of the dashboard runs and nothing of theirs is read.

export type GateAuthor = { kind: "draft" } | { kind: "space"; handle: string; name: string };

export interface ConsentGateProps {
  author: GateAuthor;
  reads: DraftReads;
  /** Run this dashboard on the viewer's data, this time. */
  onRun: () => void;
  /** Run every dashboard of this author from now on (saved dashboards only). */
  onTrust?: () => void;
  /** Do not use the viewer's data: show the dashboard on demo data. */
  onDecline: () => void;
  /** Actions wait for hydration and for a trust request in flight. */
  disabled?: boolean;
  /** Shown when the gate is back because a new revision reads more than was agreed. */
  changed?: boolean;
  message?: string | null;
}

/** "/crm/:instance/deals" reads as "/crm/any instance/deals", with what the endpoint is. */
function describe(path: string): { path: string; what: string } {
  const what = matchPath(path)?.endpoint.summary ?? "";
  return { path: path.replace(/:([a-zA-Z]+)/g, "{any $1}"), what };
}

export function ConsentGate(props: ConsentGateProps) {
  const { author, reads, onRun, onTrust, onDecline, disabled, changed, message } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  // Moving focus to the question means a keyboard or screen-reader user meets it first.
  useEffect(() => {
    heading.current?.focus();
  }, [changed]);
  const who =
    author.kind === "draft" ? (
      <>an anonymous author of a playground draft (whoever holds its write link)</>
    ) : (
      <>
        {author.name} (<a href={`/~/${author.handle}`}>/~/{author.handle}</a>)
      </>
    );
  return (
    <section className={styles.gate} aria-labelledby="consent-title" data-testid="consent-gate">
      <h2 id="consent-title" ref={heading} tabIndex={-1}>
        {changed ? "This dashboard changed: run the new version on your data?" : "Run this dashboard on your data?"}
      </h2>
      <p>
        It was written by {who}, not by you. It asks to read your own data through this site, as you:
      </p>
      {reads.paths.length > 0 ? (
        <ul className={styles.paths} data-testid="consent-paths" aria-label="What it will read">
          {reads.paths.map((p) => {
            const d = describe(p);
            return (
              <li key={p}>
                <code>{d.path}</code>
                {d.what ? <span className="muted"> — {d.what}</span> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {!reads.complete ? (
        <p data-testid="consent-incomplete">
          Some of its requests are built in a way that cannot be read ahead of time; they will be refused, so parts of it may not work.
        </p>
      ) : null}
      <p className={styles.warning}>
        <strong>A dashboard can send anything it reads out of your browser.</strong> Run it on your data only if you trust its author. It reads
        nothing else, and nothing of yours is read until you choose.
      </p>
      <div className={styles.actions} role="group" aria-label="Your choice">
        <button type="button" className="primary" onClick={onRun} disabled={disabled}>
          Run with my data
        </button>
        {onTrust && author.kind === "space" ? (
          <button type="button" onClick={onTrust} disabled={disabled}>
            Always trust {author.handle}
          </button>
        ) : null}
        <button type="button" onClick={onDecline} disabled={disabled}>
          Show with demo data
        </button>
      </div>
      <p role="status" className={styles.message}>
        {message ?? null}
      </p>
    </section>
  );
}

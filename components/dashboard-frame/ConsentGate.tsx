"use client";

import { useEffect, useRef, useState } from "react";
import { matchRoute } from "@/lib/contract/routes";
import { agree, type Agreement, type CodeAuthor, type LiveQuestion } from "@/lib/consent/live";
import styles from "./ConsentGate.module.css";

// What a viewer sees before code they did not write may read their live data. Until they choose,
// no frame runs on their data. This component is the only caller of `agree`: a yes exists only as
// the viewer's click on it (eslint.config.mjs keeps `agree` out of every other module).

interface ConsentGateProps {
  question: LiveQuestion;
  /** The viewer said yes: run on these paths. */
  onAgree: (agreement: Agreement) => void;
  /**
   * "Always trust <handle>" (saved dashboards only): kept on the server first; resolves to an
   * error message, or null once trusted, which counts as a yes.
   */
  onTrust?: () => Promise<string | null>;
  /** Do not use the viewer's data: show the dashboard on demo data. */
  onDecline: () => void;
  /** Actions wait for hydration. */
  disabled?: boolean;
  /**
   * Beside a dashboard that keeps running on what was agreed, rather than in its place: the
   * editor asks this way about paths added by editing.
   */
  inline?: boolean;
}

/** "/crm/:instance/deals" reads as "/crm/{any instance}/deals", with what the endpoint is. */
function describe(path: string): { path: string; what: string } {
  const what = matchRoute(path)?.route.summary ?? "";
  return { path: path.replace(/:([a-zA-Z]+)/g, "{any $1}"), what };
}

function Who({ author }: { author: CodeAuthor }) {
  switch (author.kind) {
    case "draft":
      return <>It was written by an anonymous author of a playground draft (whoever holds its write link), not by you.</>;
    case "space":
      return (
        <>
          It was written by <bdi>{author.name}</bdi> (<a href={`/~/${author.handle}`}>/~/{author.handle}</a>), not by you.
        </>
      );
    case "editor":
      return <>It is the code in this editor, which came from {author.from}.</>;
    case "viewer":
      return <>It is your own dashboard.</>;
  }
}

export function ConsentGate(props: ConsentGateProps) {
  const { question, onAgree, onTrust, onDecline, disabled, inline } = props;
  const { author, reads, agreed } = question;
  const changed = agreed.length > 0 || inline === true;
  const shown = inline ? reads.paths.filter((p) => !agreed.includes(p)) : reads.paths;
  const heading = useRef<HTMLHeadingElement>(null);
  const [trusting, setTrusting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // Moving focus to the question means a keyboard or screen-reader user meets it first; asked
  // beside the editor, it must not take the caret from someone typing, so it is announced instead.
  const focusKey = `${changed}:${shown.join(",")}`;
  useEffect(() => {
    if (!inline) heading.current?.focus();
  }, [focusKey, inline]);
  const busy = disabled || trusting;
  const title = inline
    ? "The code now reads more of your data"
    : changed
      ? "This dashboard changed: run the new version on your data?"
      : "Run this dashboard on your data?";

  const trust = onTrust
    ? async () => {
        setTrusting(true);
        setMessage(null);
        const failed = await onTrust();
        setTrusting(false);
        if (failed) setMessage(failed);
        else onAgree(agree(question));
      }
    : undefined;

  return (
    <section
      className={`${styles.gate} ${inline ? styles.inline : ""}`}
      aria-labelledby="consent-title"
      data-testid="consent-gate"
      role={inline ? "status" : undefined}
    >
      <h2 id="consent-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p>
        <Who author={author} />{" "}
        {inline
          ? `Until you allow it, it runs on what you agreed to before, and these reads are refused:`
          : `It asks to read your own data through this site, as you:`}
      </p>
      {shown.length > 0 ? (
        <ul className={styles.paths} data-testid="consent-paths" aria-label="What it will read">
          {shown.map((p) => {
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
        <strong>Run interactively, a dashboard can send anything it reads out of your browser.</strong>{" "}
        {author.kind === "editor"
          ? "Run it on your data only if you know what this code does. It reads nothing else, and nothing of yours is read until you choose."
          : "Run it on your data only if you trust its author; drawn by this site, it needs no one's trust. It reads nothing else, and nothing of yours is read until you choose."}
      </p>
      <div className={styles.actions} role="group" aria-label="Your choice">
        <button type="button" className="primary" onClick={() => onAgree(agree(question))} disabled={busy}>
          {inline ? "Allow these reads" : "Run with my data"}
        </button>
        {trust && author.kind === "space" ? (
          <button type="button" onClick={() => void trust()} disabled={busy}>
            Always trust {author.handle}
          </button>
        ) : null}
        <button type="button" onClick={onDecline} disabled={busy}>
          Show with demo data
        </button>
      </div>
      <p role="status" className={styles.message}>
        {message ?? null}
      </p>
    </section>
  );
}

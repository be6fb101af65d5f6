"use client";

import { useState } from "react";
import { useSWRConfig } from "swr";
import styles from "./connections.module.css";

// The call-recordings opt-in: a switch that changes in place. Without scripts it is a plain form
// whose answer reloads /connections; with them, the same POST is sent in the background, the
// switch and the fact above it change, and only the calls check runs again.

interface CallsOptInProps {
  slug: string;
  product: string;
  initial: boolean;
}

type Said = { kind: "ok" | "error"; text: string } | null;

export function CallsOptIn({ slug, product, initial }: CallsOptInProps) {
  const [optedIn, setOptedIn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Said>(null);
  const { mutate } = useSWRConfig();
  const action = `/connections/${slug}/opt-in`;
  const labelId = `connector-${slug}-optin-label`;
  const helpId = `connector-${slug}-optin-help`;

  const toggle = async () => {
    const next = !optedIn;
    setBusy(true);
    setSaid(null);
    try {
      const res = await fetch(action, {
        method: "POST",
        body: new URLSearchParams({ optIn: next ? "1" : "0" }),
        credentials: "same-origin",
        // The route answers a form with a redirect back to this page; that answer is the success.
        redirect: "manual",
        cache: "no-store",
      });
      if (res.type !== "opaqueredirect" && !res.ok) throw new Error(String(res.status));
      setOptedIn(next);
      setSaid({ kind: "ok", text: next ? "You opted in to call recordings." : "You opted out of call recordings." });
      void mutate(`/api/connections/${encodeURIComponent(slug)}/check`);
    } catch {
      setSaid({ kind: "error", text: "The change did not go through. Try again in a moment." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <dl className={styles.facts}>
        <dt>Your opt-in</dt>
        <dd className={optedIn ? styles.yes : styles.no} data-testid="optin-state" data-connected={optedIn ? "true" : "false"}>
          {optedIn ? "Opted in" : "Not opted in"}
        </dd>
      </dl>
      <form
        method="post"
        action={action}
        className={styles.actions}
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void toggle();
        }}
      >
        <input type="hidden" name="optIn" value={optedIn ? "0" : "1"} />
        <button
          type="submit"
          role="switch"
          aria-checked={optedIn}
          aria-labelledby={labelId}
          aria-describedby={helpId}
          aria-busy={busy || undefined}
          className={styles.switch}
          data-testid="calls-optin"
        >
          <span className={styles.track} aria-hidden="true">
            <span className={styles.knob} />
          </span>
          <span id={labelId}>Read call recordings</span>
          <span className={styles.switchState} aria-hidden="true">
            {optedIn ? "On" : "Off"}
          </span>
        </button>
        <span role="status" className={said?.kind === "error" ? "error-text" : "muted"}>
          {said?.text ?? ""}
        </span>
      </form>
      <p id={helpId} className="muted">
        Call recordings are read through one shared {product} credential for the whole organisation. Your dashboards can read them only while you
        are opted in.
      </p>
    </>
  );
}

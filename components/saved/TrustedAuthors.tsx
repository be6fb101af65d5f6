"use client";

import { useState, type FormEvent } from "react";
import { useInteractive } from "@/components/interactive";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { TrustedAuthor } from "@/lib/saved/trust";
import { postJson } from "./human-fetch";

// The authors whose dashboards run on the viewer's data without asking, and the way to take
// that back. Shown on /account, /connections and in the viewer's own space. Each "Stop trusting"
// is a form posting to /account/trust, so it works before the script runs (the server sends the
// browser back to `returnTo`); once it runs, the list changes in place.

export function TrustedAuthors({ initial, csrf, returnTo }: { initial: TrustedAuthor[]; csrf: string; returnTo?: string }) {
  const [authors, setAuthors] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const interactive = useInteractive();

  const revoke = async (event: FormEvent, handle: string) => {
    if (!interactive) return;
    event.preventDefault();
    setBusy(handle);
    setMessage(null);
    const res = await postJson<{ authors: TrustedAuthor[] }>("/account/trust", csrf, { op: "remove", handle });
    setBusy(null);
    if (res.ok) {
      setAuthors(res.body.authors);
      setMessage({ kind: "ok", text: `Dashboards by ${handle} ask before they use your data again.` });
    } else setMessage({ kind: "error", text: res.message });
  };

  return (
    <section className="card stack" aria-labelledby="trusted-title" data-testid="trusted-authors">
      <h2 id="trusted-title">Authors you trust with your data</h2>
      <p className="muted">
        A dashboard someone else wrote asks before it reads your data, and reads only the paths it showed you. Dashboards by these authors skip
        the question.
      </p>
      {authors.length === 0 ? (
        <p data-testid="trusted-none">You trust nobody&apos;s dashboards with your data yet.</p>
      ) : (
        <ul className="user-list">
          {authors.map((a) => (
            <li key={a.handle} data-testid="trusted-author">
              <span>
                <bdi>{a.name}</bdi> (<a href={`/~/${a.handle}`}>/~/{a.handle}</a>){" "}
                <span className="muted" data-testid="trusted-how">
                  · since <RelativeTime ms={Date.parse(a.since)} />
                  {a.madeVia === "site" ? ", by you on this site" : ", from before this site recorded how (stop trusting if you do not remember choosing it)"}
                </span>
              </span>
              <form method="post" action="/account/trust" className="inline" onSubmit={(e) => void revoke(e, a.handle)}>
                <input type="hidden" name="csrf" value={csrf} />
                <input type="hidden" name="op" value="remove" />
                <input type="hidden" name="handle" value={a.handle} />
                {returnTo ? <input type="hidden" name="next" value={returnTo} /> : null}
                <button type="submit" disabled={busy !== null}>
                  Stop trusting {a.handle}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <p role="status">{message ? <span className={message.kind === "error" ? "error-text" : undefined}>{message.text}</span> : null}</p>
    </section>
  );
}

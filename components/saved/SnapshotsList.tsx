"use client";

import { useState, type FormEvent } from "react";
import { useInteractive } from "@/components/interactive";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { SnapshotSummary } from "@/lib/saved/snapshots";
import { postJson } from "./human-fetch";

// The person's open snapshots on /account, each with its Revoke. Each Revoke is a form posting
// to /account/snapshots, so it works before the script runs (the server sends the browser back
// here); once it runs, the list changes in place.

const AUDIENCE: Record<SnapshotSummary["visibility"], string> = {
  private: "only you",
  signed_in: "anyone signed in",
  link: "anyone with the link",
};

export function SnapshotsList({ initial, csrf }: { initial: SnapshotSummary[]; csrf: string }) {
  const [snapshots, setSnapshots] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const interactive = useInteractive();

  const revoke = async (event: FormEvent, s: SnapshotSummary) => {
    if (!interactive) return;
    event.preventDefault();
    setBusy(s.id);
    setMessage(null);
    const res = await postJson<{ snapshots: SnapshotSummary[] }>("/account/snapshots", csrf, { op: "revoke", id: s.id });
    setBusy(null);
    if (res.ok) {
      setSnapshots(res.body.snapshots);
      setMessage({ kind: "ok", text: `The snapshot of ${s.title} is revoked: what it showed is deleted, and its address answers that it is gone.` });
    } else setMessage({ kind: "error", text: res.message });
  };

  return (
    <section id="snapshots" className="card stack" aria-labelledby="snapshots-title" data-testid="account-snapshots">
      <h2 id="snapshots-title">Snapshots</h2>
      <p className="muted">
        Your dashboards as this site drew them on your data, each kept at an address of its own until it expires or you revoke it. They run no code
        and read no data when opened.
      </p>
      {snapshots.length === 0 ? (
        <p data-testid="account-snapshots-none">No snapshots. Freeze one from any of your saved dashboards.</p>
      ) : (
        <ul className="user-list">
          {snapshots.map((s) => (
            <li key={s.id} data-testid="account-snapshot">
              <span>
                <a href={s.path}>
                  <bdi>{s.title}</bdi>
                </a>{" "}
                <span className="muted">
                  · from {s.dashboard} · drawn <RelativeTime ms={Date.parse(s.drawnAt)} /> · open to {AUDIENCE[s.visibility]} · expires{" "}
                  <RelativeTime ms={Date.parse(s.expiresAt)} />
                </span>
              </span>
              <form method="post" action="/account/snapshots" className="inline" onSubmit={(e) => void revoke(e, s)}>
                <input type="hidden" name="csrf" value={csrf} />
                <input type="hidden" name="op" value="revoke" />
                <input type="hidden" name="id" value={s.id} />
                <input type="hidden" name="next" value="/account#snapshots" />
                <button type="submit" disabled={busy !== null} aria-label={`Revoke the snapshot of ${s.title} drawn ${s.drawnAt.slice(0, 16).replace("T", " ")} UTC`}>
                  Revoke
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

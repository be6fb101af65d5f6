"use client";

import { useState, type FormEvent } from "react";
import { useInteractive } from "@/components/interactive";
import { postJson } from "./human-fetch";
import styles from "./saved.module.css";

// "Freeze a snapshot" on the person's own saved dashboard: the service draws it on their data now
// and keeps that drawing at an address of its own (lib/saved/snapshots.ts). A form posting to
// /account/snapshots, so it works before the script runs (the server answers with a redirect to
// the new snapshot); once it runs, the page says it is drawing and then opens the snapshot.

/** A phone is drawn at a phone's width, as the safe view draws it. */
const PHONE_QUERY = "(max-width: 600px)";
const DAYS = [1, 7, 30, 90] as const;

export function FreezeSnapshot({ path, revision, csrf }: { path: string; revision: number; csrf: string }) {
  const interactive = useInteractive();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  const freeze = async (event: FormEvent<HTMLFormElement>) => {
    if (!interactive) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setMessage({ kind: "ok", text: "Drawing it on your data…" });
    const res = await postJson<{ snapshot: { path: string } }>("/account/snapshots", csrf, {
      op: "create",
      path,
      revision,
      viewport: window.matchMedia(PHONE_QUERY).matches ? "phone" : "desktop",
      visibility: form.get("visibility"),
      expiresInDays: Number(form.get("expiresInDays")),
    });
    if (res.ok) {
      setMessage({ kind: "ok", text: "Frozen; opening the snapshot…" });
      window.location.assign(res.body.snapshot.path);
      return;
    }
    setBusy(false);
    setMessage({ kind: "error", text: res.message });
  };

  return (
    <details className={styles.freeze} data-testid="freeze-snapshot">
      <summary>Freeze a snapshot</summary>
      <form method="post" action="/account/snapshots" className={styles.freezeForm} onSubmit={(e) => void freeze(e)}>
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="op" value="create" />
        <input type="hidden" name="path" value={path} />
        <input type="hidden" name="revision" value={revision} />
        <p>
          This site draws the dashboard on your data now and keeps that drawing at an address of its own. It stays private to you until you share it,
          and it runs no code and reads no data when opened.
        </p>
        <label>
          Who may open it{" "}
          <select name="visibility" defaultValue="private">
            <option value="private">Only you</option>
            <option value="signed_in">Anyone signed in to this site</option>
            <option value="link">Anyone with the link</option>
          </select>
        </label>
        <label>
          Expires after{" "}
          <select name="expiresInDays" defaultValue="7">
            {DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? "1 day" : `${d} days`}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Freeze it now
        </button>
        <p role="status" className={styles.message} data-testid="freeze-status">
          {message ? <span className={message.kind === "error" ? "error-text" : undefined}>{message.text}</span> : null}
        </p>
      </form>
    </details>
  );
}

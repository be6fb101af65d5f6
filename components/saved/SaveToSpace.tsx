"use client";

import { useEffect, useId, useRef, useState } from "react";
import { SLUG_PATTERN, toSlug } from "@/lib/saved/slug";
import { useInteractive } from "@/components/interactive";
import { humanPost } from "./human-fetch";
import styles from "./saved.module.css";

/** Who may save from a page: the signed-in person, with their page's CSRF token. */
export interface Saver {
  handle: string;
  csrf: string;
}

interface SaveToSpaceProps {
  handle: string;
  csrf: string;
  suggested: string | null | undefined;
  /** The HTML to save at the moment the person presses Save. */
  html: () => string;
  /** Shown in the dashboard's history beside this revision. */
  note?: string;
  /** Called with the HTML that was saved, once the save succeeded. */
  onSaved?: (html: string) => void;
}

type State = { kind: "idle" } | { kind: "saving" } | { kind: "saved"; path: string; revision: number; created: boolean } | { kind: "error"; message: string };

/** "Save to my space": a slug field (the draft's suggestion, editable) and the saved link. */
export function SaveToSpace({ handle, csrf, suggested, html, note, onSaved }: SaveToSpaceProps) {
  const [open, setOpen] = useState(false);
  // The suggestion is followed until the person types a name: it may arrive after the first
  // render (a dashboard handed over from a space) or change with the document's title.
  const [typed, setTyped] = useState<string | null>(null);
  const slug = typed ?? toSlug(suggested);
  const [state, setState] = useState<State>({ kind: "idle" });
  const interactive = useInteractive();
  const id = useId();
  const valid = SLUG_PATTERN.test(slug);

  // Focus follows the panel: into the name when it opens, back to its button when it closes, so
  // a keyboard user is never dropped at the top of the page.
  const nameField = useRef<HTMLInputElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) nameField.current?.focus();
    else if (wasOpen.current) openButton.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!open) {
    return (
      <button ref={openButton} type="button" className="primary" onClick={() => setOpen(true)} disabled={!interactive}>
        Save<span className={styles.saveRest}> to my space</span>
      </button>
    );
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!valid || state.kind === "saving") return;
    setState({ kind: "saving" });
    const saving = html();
    const res = await humanPost<{ path: string; revision: number; savedAt: number }>(
      `/~/${encodeURIComponent(handle)}/${slug}`,
      csrf,
      saving,
      "text/html; charset=utf-8",
      note ? { "x-save-note": note } : {},
    );
    setState(res.ok ? { kind: "saved", path: res.body.path, revision: res.body.revision, created: res.status === 201 } : { kind: "error", message: res.message });
    if (res.ok) onSaved?.(saving);
  };

  return (
    <form
      className={styles.saveForm}
      onSubmit={submit}
      aria-label="Save to my space"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        setOpen(false);
      }}
    >
      <label htmlFor={`${id}-slug`}>Name</label>
      <span className={styles.slugField}>
        <span className="muted" aria-hidden="true">
          /~/{handle}/
        </span>
        <input
          ref={nameField}
          id={`${id}-slug`}
          value={slug}
          onChange={(e) => {
            setTyped(e.target.value.toLowerCase());
            setState({ kind: "idle" });
          }}
          aria-invalid={!valid}
          aria-describedby={`${id}-help`}
          maxLength={64}
          spellCheck={false}
          autoComplete="off"
        />
      </span>
      <button type="submit" className="primary" disabled={!valid || state.kind === "saving"}>
        {state.kind === "saving" ? "Saving…" : "Save"}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Close
      </button>
      <p id={`${id}-help`} className={valid ? "muted" : "error-text"}>
        {valid ? "Saving again under the same name adds a revision; earlier ones are kept." : "Use lowercase letters, digits and hyphens, starting with a letter or digit."}
      </p>
      <p role="status" className={styles.saveStatus}>
        {state.kind === "saved" ? (
          <>
            {state.created ? "Saved" : `Saved as revision ${state.revision}`}: <a href={state.path}>{state.path}</a>
          </>
        ) : state.kind === "error" ? (
          <span className="error-text">Not saved. {state.message}</span>
        ) : null}
      </p>
    </form>
  );
}

"use client";

import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { SLUG_PATTERN, htmlTitle, proposedAddress, titleProblem, withTitle } from "@/lib/saved/slug";
import { useInteractive } from "@/components/interactive";
import { humanPost } from "./human-fetch";
import styles from "./saved.module.css";

/** Who may save from a page: the signed-in person, with their page's CSRF token. */
export interface Saver {
  handle: string;
  csrf: string;
}

/** A revision in the person's space, and the HTML it holds: what the page has is saved when it is the same. */
export interface SavedRef {
  path: string;
  slug: string;
  revision: number;
  html: string;
}

type SaveOutcome = { ok: true; saved: SavedRef } | { ok: false; message: string };

/** Adds a revision of `html` to the person's dashboard `slug`. */
export async function saveRevision(saver: Saver, slug: string, html: string, note?: string): Promise<SaveOutcome> {
  const res = await humanPost<{ path: string; revision: number; savedAt: number }>(
    `/~/${encodeURIComponent(saver.handle)}/${slug}`,
    saver.csrf,
    html,
    "text/html; charset=utf-8",
    note ? { "x-save-note": note } : {},
  );
  return res.ok ? { ok: true, saved: { path: res.body.path, slug, revision: res.body.revision, html } } : { ok: false, message: res.message };
}

/** Whether what the page has now is the revision last saved, in words (a link goes beside a path). */
function savedState(saved: SavedRef, html: string): { text: string; path: string } {
  return html === saved.html ? { text: `Saved revision ${saved.revision} to `, path: saved.path } : { text: `Unsaved changes since revision ${saved.revision} of `, path: saved.path };
}

interface SaveToSpaceProps {
  handle: string;
  csrf: string;
  /** A name to propose for the address until a title is typed (a draft's `dash`, the dashboard's slug). */
  suggested: string | null | undefined;
  /** The HTML the page has now. */
  html: string;
  /** Shown in the dashboard's history beside this revision. */
  note?: string;
  /** The revision last saved from this page, if any. */
  saved: SavedRef | null;
  /** Called once a save succeeded. */
  onSaved: (saved: SavedRef) => void;
  /**
   * Where the page's source is editable: a title typed here is written into the source's `<title>`
   * first, so the source goes on matching what was saved. Elsewhere only the saved copy carries it.
   */
  retitle?: (html: string) => void;
  /** The keys that save from this page, for assistive technology and the button's tooltip. */
  keyShortcuts?: string;
}

type State = { kind: "idle" } | { kind: "saving" } | { kind: "error"; message: string };

/**
 * Focus follows the panel: into the title when it opens, back to its button when it closes, so
 * a keyboard user is never dropped at the top of the page.
 */
function usePanelFocus(open: boolean) {
  const titleField = useRef<HTMLInputElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // A panel that opens leftwards from its button (the editor's toolbar) would pass the window's
  // left edge when the button has wrapped to the start of a row: it opens rightwards instead.
  const formRef = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    const form = formRef.current;
    if (open && form && form.getBoundingClientRect().left < 0) form.dataset.align = "start";
  }, [open]);
  useEffect(() => {
    if (open) titleField.current?.focus();
    else if (wasOpen.current) openButton.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return { titleField, openButton, formRef };
}

interface ClosedButtonArgs {
  openButton: RefObject<HTMLButtonElement | null>;
  onOpen: () => void;
  interactive: boolean;
  /** The id of the line saying whether the newest is saved, when there is one. */
  stateId: string | null;
  keyShortcuts: string | undefined;
  stateLine: ReactNode;
}

/** The panel closed: its button, and where the page was last saved. Called, not rendered, so the tree is as before. */
function closedButton({ openButton, onOpen, interactive, stateId, keyShortcuts, stateLine }: ClosedButtonArgs) {
  return (
    <>
      <button ref={openButton} type="button" className="primary" onClick={onOpen} disabled={!interactive}
        aria-describedby={stateId ?? undefined}
        aria-keyshortcuts={keyShortcuts}
        title={keyShortcuts ? "Save to my space (Ctrl+S or ⌘S)" : undefined}
      >
        Save<span className={styles.saveRest}> to my space</span>
      </button>
      {stateId ? (
        <span id={stateId} className={styles.saveState} data-testid="save-state">
          {stateLine}
        </span>
      ) : null}
    </>
  );
}

/** "Save to my space": a Title and the Address it proposes (editable), and whether the newest is saved. */
export function SaveToSpace({ handle, csrf, suggested, html, note, saved, onSaved, retitle, keyShortcuts }: SaveToSpaceProps) {
  const [open, setOpen] = useState(false);
  // Both fields follow the document until the person types in them: the suggestion may arrive
  // after the first render (a dashboard handed over from a space) or change with its <title>.
  const [titleTyped, setTitleTyped] = useState<string | null>(null);
  const [addressTyped, setAddressTyped] = useState<string | null>(null);
  const title = titleTyped ?? htmlTitle(html) ?? "";
  const slug = proposedAddress({ title, titleTyped: titleTyped !== null, addressTyped, suggested });
  const [state, setState] = useState<State>({ kind: "idle" });
  const interactive = useInteractive();
  const id = useId();
  const badTitle = titleProblem(title);
  const badAddress = SLUG_PATTERN.test(slug) ? null : "Use 1–64 lowercase letters, digits and hyphens for the address, starting with a letter or digit.";
  const problem = badTitle ?? badAddress;

  const { titleField, openButton, formRef } = usePanelFocus(open);

  const where = saved ? savedState(saved, html) : null;
  const stateLine = where ? (
    <>
      {where.text}
      <a href={where.path}>{where.path}</a>
    </>
  ) : null;

  if (!open) {
    return closedButton({ openButton, onOpen: () => setOpen(true), interactive, stateId: where ? `${id}-state` : null, keyShortcuts, stateLine });
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (problem || state.kind === "saving") return;
    const titled = withTitle(html, title);
    if (titled === null) {
      setState({ kind: "error", message: "This document's <title> could not be set to that; write it in the source's <title> and save again." });
      return;
    }
    setState({ kind: "saving" });
    if (titled !== html) retitle?.(titled);
    const res = await saveRevision({ handle, csrf }, slug, titled, note);
    if (!res.ok) {
      setState({ kind: "error", message: res.message });
      return;
    }
    setState({ kind: "idle" });
    // Saving again goes to the same address; a title written into the source is followed there again.
    setAddressTyped(res.saved.slug);
    if (retitle) setTitleTyped(null);
    // Where the source is not rewritten, what the page has is what it had when saving began.
    onSaved(retitle ? res.saved : { ...res.saved, html });
  };

  return (
    <form
      ref={formRef}
      className={styles.saveForm}
      onSubmit={submit}
      aria-label="Save to my space"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        setOpen(false);
      }}
    >
      <span className={styles.saveField}>
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          ref={titleField}
          id={`${id}-title`}
          value={title}
          onChange={(e) => {
            setTitleTyped(e.target.value);
            setState({ kind: "idle" });
          }}
          aria-invalid={badTitle !== null}
          aria-describedby={`${id}-help`}
          maxLength={400}
          autoComplete="off"
        />
      </span>
      <span className={styles.saveField}>
        <label htmlFor={`${id}-slug`}>Address</label>
        <span className={styles.slugField}>
          <span className="muted" aria-hidden="true">
            /~/{handle}/
          </span>
          <input
            id={`${id}-slug`}
            value={slug}
            onChange={(e) => {
              setAddressTyped(e.target.value.toLowerCase());
              setState({ kind: "idle" });
            }}
            aria-invalid={badAddress !== null}
            aria-describedby={`${id}-help`}
            maxLength={64}
            spellCheck={false}
            autoComplete="off"
          />
        </span>
      </span>
      <button type="submit" className="primary" disabled={problem !== null || state.kind === "saving"}>
        {state.kind === "saving" ? "Saving…" : "Save"}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Close
      </button>
      <p id={`${id}-help`} className={problem ? "error-text" : "muted"}>
        {problem ?? "The saved page is headed with the title. Saving again at the same address adds a revision; earlier ones are kept."}
      </p>
      <p role="status" className={styles.saveStatus}>
        {state.kind === "error" ? <span className="error-text">Not saved. {state.message}</span> : stateLine}
      </p>
    </form>
  );
}

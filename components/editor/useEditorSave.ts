"use client";

import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { saveRevision, type SavedRef, type Saver } from "@/components/saved/SaveToSpace";
import type { EditorExample } from "./editor-example";
import type { DraftSharing } from "./useDraftSharing";

interface EditorSaveInput {
  saver: Saver | null | undefined;
  html: string;
  starter: EditorExample | undefined;
  sharing: DraftSharing;
  announce: (text: string) => void;
}

/**
 * Keeping the source in the person's space: the revision it last went to, saving again at once,
 * and Ctrl/Cmd+S, which keeps the work the way this person can — saved to their space when signed
 * in (through the form in `saveBox`), shared as a draft otherwise; never the browser's "save page as".
 */
export function useEditorSave({ saver, html, starter, sharing, announce }: EditorSaveInput) {
  // The revision of the person's space this document last went to (saved here, or handed over
  // from their space), for the document it was: another example or draft starts unsaved again.
  const [saved, setSaved] = useState<{ ref: SavedRef; starter: EditorExample | undefined } | null>(null);
  const savedRef = saved && saved.starter === starter ? saved.ref : null;
  const { revision } = sharing;
  const saveNote = revision ? `From the playground editor, draft revision ${revision}` : "From the playground editor";
  const savingNow = useRef(false);
  // A dashboard already in the person's space takes the source as its next revision at once.
  const saveAgain = async (to: SavedRef, by: Saver) => {
    if (savingNow.current) return;
    const now = html;
    if (now === to.html) {
      announce(`Nothing to save: revision ${to.revision} at ${to.path} is what the editor has.`);
      return;
    }
    savingNow.current = true;
    announce(`Saving to ${to.path}…`);
    const res = await saveRevision(by, to.slug, now, saveNote);
    savingNow.current = false;
    if (!res.ok) {
      announce(`Not saved. ${res.message} Your edits are still in the editor.`);
      return;
    }
    setSaved({ ref: res.saved, starter });
    announce(`Saved revision ${res.saved.revision} to ${res.saved.path}`);
  };

  const saveBox = useRef<HTMLSpanElement>(null);
  const { share: shareState, shareDraft } = sharing;
  const keep = useEffectEvent(() => {
    if (saver) {
      const box = saveBox.current;
      const form = box?.querySelector("form");
      if (form) form.requestSubmit();
      else if (savedRef) void saveAgain(savedRef, saver);
      // The first save asks for a title and an address; opening the form puts focus in its title.
      else box?.querySelector("button")?.click();
      return;
    }
    if (shareState.kind === "idle" || shareState.kind === "failed") void shareDraft();
    else if (shareState.kind === "shared") announce("Already shared: every edit reaches watchers.");
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== "s") return;
      e.preventDefault();
      if (!e.repeat) keep();
    };
    // In the capture phase, so the key is taken before anything inside the page sees it.
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, []);

  // A document handed over from the person's own space is saved there already, at that revision.
  const onOwnHandoff = useCallback(
    (from: { starter: EditorExample; slug: string; revision: number; html: string }) => {
      if (saver) setSaved({ starter: from.starter, ref: { path: `/~/${saver.handle}/${from.slug}`, slug: from.slug, revision: from.revision, html: from.html } });
    },
    [saver],
  );

  return { savedRef, setSaved, saveNote, saveBox, onOwnHandoff };
}

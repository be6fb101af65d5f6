"use client";

import { useCallback, useState } from "react";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import type { EditorExample } from "./editor-example";

export interface EditorSource {
  /** The document the source started from: an example, or what a saved dashboard handed over. */
  starter: EditorExample | undefined;
  /** Changes on every load, so loading the same example again starts the source over. */
  editorKey: string;
  /** The source as it is now. */
  html: string;
  setHtml: (html: string) => void;
  /** Whether the source differs from the document it started from. */
  edited: boolean;
  /** The example the address asked for when there is none by that name, until another is loaded. */
  unknownExample: string | null;
  /** What the editor shows when it (re)starts: the starter's html, or edits brought back over it. */
  initialHtml: string;
  /** The undo history brought back with the edits, if it was kept. */
  initialHistory: unknown;
  /** Starts the source over from `next`. */
  load: (next: EditorExample) => void;
  /** Starts the source over from `base` with `html` on it as edits, as kept edits bring them back (with their undo history). */
  restore: (base: EditorExample, html: string, history?: unknown) => void;
  /** Loads a gallery example, asking first when edits would be lost, and names it in the address. */
  chooseExample: (id: string) => void;
  /** The example waiting for the person's word that their edits may go. */
  pendingExample: EditorExample | null;
  /** Answers that question: load it, or keep the edits. */
  answerPending: (load: boolean) => void;
}

/**
 * The editor's source and the document it started from: `opened` (a draft's own address) when
 * given, else the example the address asks for.
 */
export function useEditorSource(
  starters: readonly EditorExample[],
  requestedExample: string | undefined,
  announce: (status: string) => void,
  opened?: EditorExample,
): EditorSource {
  const requested = requestedExample === undefined ? undefined : starters.find((e) => e.id === requestedExample);
  const [starter, setStarter] = useState(opened ?? requested ?? starters[0]);
  // Bumped on every load, so loading the same example again starts the source over.
  const [loads, setLoads] = useState(0);
  const [unknownExample, setUnknownExample] = useState(requestedExample !== undefined && !requested ? requestedExample : null);
  const [html, setHtml] = useState(starter?.html ?? "");
  const [initialHtml, setInitialHtml] = useState(html);
  const [initialHistory, setInitialHistory] = useState<unknown>(undefined);
  const edited = starter !== undefined && html !== starter.html;

  const restore = useCallback((base: EditorExample, edits: string, history?: unknown) => {
    setStarter(base);
    setLoads((n) => n + 1);
    setHtml(edits);
    setInitialHtml(edits);
    setInitialHistory(history);
  }, []);
  const load = useCallback((next: EditorExample) => restore(next, next.html), [restore]);

  const [pendingExample, setPendingExample] = useState<EditorExample | null>(null);
  const apply = (next: EditorExample) => {
    load(next);
    setUnknownExample(null);
    announce(`Loaded the ${next.label} example.`);
    // The address names the example, so a reload or a copied link opens the same one; a draft's
    // own address keeps naming the draft, which the example now goes to.
    if (window.location.pathname === PLAYGROUND_BASE) window.history.replaceState(null, "", `?example=${encodeURIComponent(next.id)}`);
  };
  const chooseExample = (id: string) => {
    const next = starters.find((e) => e.id === id);
    if (!next) return;
    if (edited) setPendingExample(next);
    else apply(next);
  };
  const answerPending = (yes: boolean) => {
    const next = pendingExample;
    setPendingExample(null);
    if (yes && next) apply(next);
  };

  return { starter, editorKey: `${starter?.id ?? ""}-${loads}`, html, setHtml, edited, unknownExample, initialHtml, initialHistory, load, restore, chooseExample, pendingExample, answerPending };
}

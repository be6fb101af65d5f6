"use client";

import { useCallback, useSyncExternalStore } from "react";

// The editor's share of the width is the author's choice of workspace, kept in this browser so a
// reload or the next visit opens the panes as they were left.

const KEY = "playground.editor-split";
const listeners = new Set<() => void>();
/** The split of this page's life, for when storage is off (a privacy setting). */
let remembered: number | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The split in percent, within [min, max]; `fallback` before hydration and when none is kept. */
export function usePaneSplit(fallback: number, min: number, max: number): [number, (value: number) => void] {
  const read = useCallback(() => {
    let kept = remembered;
    try {
      const raw = window.localStorage.getItem(KEY);
      if (raw !== null) kept = Number(raw);
    } catch {
      // Storage is off: the split lasts as long as the page.
    }
    return kept !== null && Number.isFinite(kept) && kept >= min && kept <= max ? kept : fallback;
  }, [fallback, min, max]);
  const value = useSyncExternalStore(subscribe, read, () => fallback);
  const set = useCallback((next: number) => {
    remembered = next;
    try {
      window.localStorage.setItem(KEY, String(next));
    } catch {
      // Storage is off: `remembered` carries the split for this page.
    }
    for (const l of listeners) l();
  }, []);
  return [value, set];
}

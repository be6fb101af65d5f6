"use client";

import { useCallback, useSyncExternalStore } from "react";

// The editor's share of the width and the dock's height are the author's choice of workspace,
// kept in this browser so a reload or the next visit opens the panes as they were left.

const listeners = new Set<() => void>();
/** The sizes of this page's life, for when storage is off (a privacy setting). */
const remembered = new Map<string, number>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The size kept under `key`, within [min, max]; `fallback` before hydration and when none is kept. */
export function usePaneSplit(key: string, fallback: number, min: number, max: number): [number, (value: number) => void] {
  const read = useCallback(() => {
    let kept = remembered.get(key) ?? null;
    try {
      const raw = window.localStorage.getItem(key);
      if (raw !== null) kept = Number(raw);
    } catch {
      // Storage is off: the split lasts as long as the page.
    }
    return kept !== null && Number.isFinite(kept) && kept >= min && kept <= max ? kept : fallback;
  }, [key, fallback, min, max]);
  const value = useSyncExternalStore(subscribe, read, () => fallback);
  const set = useCallback((next: number) => {
    remembered.set(key, next);
    try {
      window.localStorage.setItem(key, String(next));
    } catch {
      // Storage is off: `remembered` carries the split for this page.
    }
    for (const l of listeners) l();
  }, [key]);
  return [value, set];
}

"use client";

import { useEffect, useState } from "react";

/** `value` once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/**
 * `value` once it has stayed the same for `ms` and the page next has a moment to spare (at most
 * `idleMs` later): a pause in typing short enough to feel immediate, without starting the
 * preview in the middle of the editor's own work on the keystroke.
 */
export function useIdleDebounced<T>(value: T, ms: number, idleMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    let idle: number | null = null;
    const t = setTimeout(() => {
      if (typeof window.requestIdleCallback === "function") idle = window.requestIdleCallback(() => setDebounced(value), { timeout: idleMs });
      else setDebounced(value);
    }, ms);
    return () => {
      clearTimeout(t);
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, [value, ms, idleMs]);
  return debounced;
}

"use client";

import { useEffect, useState } from "react";
import { formatAbsolute, formatRelative } from "./relative-time";

// One clock for every relative time on the page, so they all move on together.
const listeners = new Set<(now: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: (now: number) => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    const now = Date.now();
    for (const l of listeners) l(now);
  }, 30_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => subscribe(setNow), []);
  return now;
}

/** "5 minutes ago", with the exact time in the title and machine-readable in dateTime. */
export function RelativeTime({ ms }: { ms: number }) {
  const now = useNow();
  const iso = new Date(ms).toISOString();
  const exact = formatAbsolute(ms);
  return (
    // The server's clock and zone differ from the browser's by a little; the browser's wins.
    <time dateTime={iso} title={exact} suppressHydrationWarning>
      {formatRelative(ms, now)}
    </time>
  );
}

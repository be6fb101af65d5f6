"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";

/**
 * A dashboard left open is drawn again this often (its reads made afresh), while the page is
 * shown: a wall screen stays current, a tab in the background costs nothing.
 */
export const SAVED_REFRESH_MINUTES = 5;

/** The saved dashboard's draws: each has its own key, and a new one starts it again from its bootstrap. */
export function useSavedRefresh(old: boolean, clearProblems: () => void) {
  const router = useRouter();
  const [draw, setDraw] = useState(0);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = useCallback(() => {
    setRefreshing(true);
    clearProblems();
    setDraw((n) => n + 1);
    // A newer revision saved meanwhile comes with the page's data; a pinned revision stays.
    if (!old) router.refresh();
  }, [old, router, clearProblems]);
  const onReport = useCallback(() => {
    setUpdatedAt(Date.now());
    setRefreshing(false);
  }, []);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") refresh();
    }, SAVED_REFRESH_MINUTES * 60_000);
    return () => clearInterval(timer);
  }, [refresh]);
  return { draw, updatedAt, refreshing, refresh, onReport };
}

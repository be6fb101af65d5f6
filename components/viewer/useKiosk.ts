"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/** The address parameter that opens a watch or saved page with nothing but the dashboard. */
const KIOSK_PARAM = "kiosk";

/** The current address with kiosk on or off, every other parameter kept as it was. */
function kioskAddress(href: string, on: boolean): string {
  const url = new URL(href);
  if (on) url.searchParams.set(KIOSK_PARAM, "1");
  else url.searchParams.delete(KIOSK_PARAM);
  return `${url.pathname}${url.search}${url.hash}`;
}

export interface Kiosk {
  kiosk: boolean;
  enter: () => void;
  leave: () => void;
}

/**
 * Kiosk mode for a page left open on a wall: the address carries it (`?kiosk=1`, so a screen
 * can be pointed at it), Escape leaves it, and entering asks the browser for full screen where
 * the browser allows it. The browser's own Escape ends its full screen without the page seeing
 * the key, so the end of full screen the page asked for ends kiosk mode too.
 */
export function useKiosk(initial: boolean): Kiosk {
  const [kiosk, setKiosk] = useState(initial);
  const ownFullscreen = useRef(false);

  const leave = useCallback(() => {
    setKiosk(false);
    // Replacing the entry keeps the back button for the page before, not the mode before.
    window.history.replaceState(null, "", kioskAddress(window.location.href, false));
    if (ownFullscreen.current && document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    ownFullscreen.current = false;
  }, []);

  const enter = useCallback(() => {
    setKiosk(true);
    window.history.replaceState(null, "", kioskAddress(window.location.href, true));
    // Refused without a user gesture, in a frame that disallows it, or on phones that have none:
    // kiosk mode still fills the window.
    if (document.fullscreenEnabled && !document.fullscreenElement) {
      document.documentElement
        .requestFullscreen()
        .then(() => {
          ownFullscreen.current = true;
        })
        .catch(() => {});
    }
  }, []);

  useEffect(() => {
    if (!kiosk) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      // An open dialog takes its own Escape first.
      if (document.querySelector("dialog[open]")) return;
      leave();
    };
    const onFullscreen = () => {
      if (!document.fullscreenElement && ownFullscreen.current) leave();
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("fullscreenchange", onFullscreen);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("fullscreenchange", onFullscreen);
    };
  }, [kiosk, leave]);

  return { kiosk, enter, leave };
}

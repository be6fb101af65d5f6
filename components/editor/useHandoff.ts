"use client";

import { useEffect, useRef } from "react";
import { PLAYGROUND_HANDOFF_KEY } from "@/components/saved/handoff";
import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { htmlTitle } from "@/lib/saved/slug";
import { boolean, nonEmptyString, object, oneOf, optional, parseOrNull, positiveInteger, string, type Parsed } from "@/lib/contract/json-shape";

/** What a saved dashboard's page hands over through this tab's session storage. */
const handoffFields = {
  html: nonEmptyString,
  dash: optional(string),
  revision: optional(positiveInteger),
  owner: optional(object({ handle: string, name: string })),
  own: optional(boolean),
  dataMode: optional(oneOf("demo", "live")),
};
const handoffShape = object(handoffFields);

interface Handoff {
  html: string;
  /** The saved dashboard it came from, when the page named it: saving goes back to it. */
  dash?: string;
  /** Which of its revisions, when the page said. */
  revision?: number;
  /**
   * The data the editor starts on: the viewer's own dashboard goes on as it was shown; someone
   * else's starts on demo data, and live data needs the viewer's yes in the editor.
   */
  dataMode: DataMode;
  /** Where it came from, as the consent question names it; `own` for the viewer's own dashboard. */
  source: { from: string; own: boolean };
  /** What to call it: the dashboard's name, else its title. */
  label: string;
}

/**
 * "Open in playground" on a saved dashboard: when `open`, takes what the page handed over out of
 * session storage, once, and gives it to `receive` (null when nothing usable was there).
 */
export function useHandoff(open: boolean | undefined, receive: (handoff: Handoff | null) => Promise<void> | void): void {
  const receiveRef = useRef(receive);
  useEffect(() => {
    receiveRef.current = receive;
  });

  const handedOver = useRef(false);
  useEffect(() => {
    if (!open || handedOver.current) return;
    handedOver.current = true;
    void (async () => {
      const raw = sessionStorage.getItem(PLAYGROUND_HANDOFF_KEY);
      sessionStorage.removeItem(PLAYGROUND_HANDOFF_KEY);
      let parsed: Parsed<typeof handoffFields> | null = null;
      try {
        parsed = raw ? parseOrNull(handoffShape, JSON.parse(raw)) : null;
      } catch {
        parsed = null;
      }
      await receiveRef.current(parsed ? handoffOf(parsed) : null);
    })();
  }, [open]);
}

function handoffOf(parsed: Parsed<typeof handoffFields>): Handoff {
  const own = parsed.own === true;
  const where = parsed.owner && parsed.dash ? `/~/${parsed.owner.handle}/${parsed.dash}` : "a saved dashboard";
  const from = own ? `your own dashboard ${where}` : parsed.owner ? `${parsed.owner.name}'s dashboard ${where}, not yours` : `${where}, not yours`;
  return {
    html: parsed.html,
    dash: parsed.dash,
    revision: parsed.revision,
    dataMode: own && parsed.dataMode === "live" ? "live" : "demo",
    label: parsed.dash ?? htmlTitle(parsed.html) ?? "saved dashboard",
    source: { from, own },
  };
}

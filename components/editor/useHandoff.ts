"use client";

import { useEffect, useRef } from "react";
import { z } from "zod";
import { PLAYGROUND_HANDOFF_KEY } from "@/components/saved/handoff";
import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { htmlTitle } from "@/lib/saved/slug";

/** What a saved dashboard's page hands over through this tab's session storage. */
const handoffSchema = z.object({ html: z.string().min(1), dash: z.string().optional(), dataMode: z.enum(["demo", "live"]).optional() });

export interface Handoff {
  html: string;
  /** The saved dashboard it came from, when the page named it: saving goes back to it. */
  dash?: string;
  /** The data the dashboard was shown on. */
  dataMode: DataMode;
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
      let parsed: z.infer<typeof handoffSchema> | null = null;
      try {
        parsed = raw ? handoffSchema.parse(JSON.parse(raw)) : null;
      } catch {
        parsed = null;
      }
      await receiveRef.current(parsed
          ? { html: parsed.html, dash: parsed.dash, dataMode: parsed.dataMode ?? "live", label: parsed.dash ?? htmlTitle(parsed.html) ?? "saved dashboard" }
          : null);
    })();
  }, [open]);
}

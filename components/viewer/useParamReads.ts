"use client";

import { useEffect, useState } from "react";

/**
 * The `DASHBOARD_PARAMS` names `html` reads, for a page whose dashboard arrives in the browser
 * (a watched draft changes with every revision). The check loads only for a document that names
 * the global; the rest read none without it.
 */
export function useParamReads(html: string | null): readonly string[] {
  const [found, setFound] = useState<{ html: string; names: string[] } | null>(null);
  const wanted = html !== null && html.includes("DASHBOARD_PARAMS");
  useEffect(() => {
    if (!wanted || html === null) return;
    let cancelled = false;
    import("@/lib/check").then(
      (m) => {
        if (!cancelled) setFound({ html, names: m.paramReadsOf(html) });
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [html, wanted]);
  // Until the new revision is read, the names of the last one stand: the inputs do not flicker.
  return wanted ? (found?.names ?? NONE) : NONE;
}

const NONE: readonly string[] = [];

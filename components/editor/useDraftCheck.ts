"use client";

import { useEffect, useState } from "react";
import type { DraftReads } from "@/lib/check/reads";
import type { DraftWarning } from "@/lib/contract/resources";

// The static check (an HTML tokenizer, a JavaScript parser and the rules) is most of the editor's
// weight after CodeMirror, and nothing needs it until the author changes the document: the
// examples arrive with their findings computed on the server. So it loads on first need, or
// when the author is about to type.

type CheckModule = typeof import("@/lib/check");

let loading: Promise<CheckModule> | null = null;

/** Starts loading the check; the editor calls it when the source gets focus. */
export function preloadCheck(): Promise<CheckModule> {
  loading ??= import("@/lib/check").catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

export type CheckState =
  /** `checked` is the document `warnings` were computed on; it may trail the newest text. */
  | { kind: "done"; checked: string; warnings: readonly DraftWarning[] }
  | { kind: "loading" }
  | { kind: "failed" };

/** The static check's findings for `html`, from `known` when the server computed them already. */
export function useDraftCheck(html: string, known: ReadonlyMap<string, readonly DraftWarning[]>): CheckState {
  const [computed, setComputed] = useState<CheckState>({ kind: "loading" });
  const knownWarnings = known.get(html);

  useEffect(() => {
    if (knownWarnings) return;
    let cancelled = false;
    preloadCheck().then(
      (m) => {
        if (!cancelled) setComputed({ kind: "done", checked: html, warnings: m.checkDraft(html) });
      },
      () => {
        if (!cancelled) setComputed({ kind: "failed" });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [html, knownWarnings]);

  return knownWarnings ? { kind: "done", checked: html, warnings: knownWarnings } : computed;
}

/**
 * The API paths `html` reads (the check's manifest), once `wanted`: live data in the preview is
 * served only for these. Null while the check loads or works, and after it failed.
 */
export function useDraftReads(html: string, wanted: boolean): DraftReads | null {
  const [computed, setComputed] = useState<{ html: string; reads: DraftReads } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    preloadCheck().then(
      (m) => {
        if (!cancelled) setComputed({ html, reads: m.analyseDraft(html).reads });
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [html, wanted]);
  // Reads of an older text never stand for the current one.
  return wanted && computed?.html === html ? computed.reads : null;
}

"use client";

import { useMemo } from "react";
import type { DraftWarning } from "@/lib/contract/resources";
import type { EditorExample } from "./editor-example";
import { useDraftCheck, type CheckState } from "./useDraftCheck";

export interface Findings {
  check: CheckState;
  /** The check's findings once it is done; none before. */
  warnings: readonly DraftWarning[];
}

/** The static check of `html`, taking the findings the examples arrived with where it is one of them. */
export function useFindings(html: string, examples: readonly EditorExample[]): Findings {
  const knownFindings = useMemo(
    () => new Map(examples.flatMap((e) => (e.warnings ? [[e.html, e.warnings] as const] : []))),
    [examples],
  );
  const check = useDraftCheck(html, knownFindings);
  return { check, warnings: check.kind === "done" ? check.warnings : [] };
}

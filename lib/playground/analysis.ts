import { z } from "zod";
import { draftWarning, type DraftWarning } from "@/lib/contract/resources";
import { checkDraft } from "@/lib/playground/check";

// What the static check says about one revision's html, as the server stores it: the findings
// (`warnings`) and the API paths the dashboard reads (`reads`). It is computed once, when a
// revision is accepted, and kept with the revision (`check_json`), so reading a draft never runs
// the check again: on a hostile 2 MiB draft the check costs about a second of CPU.

/** The API path templates a dashboard fetches; `complete` is false when some could not be told. */
export interface DraftReads {
  paths: string[];
  complete: boolean;
}

export interface DraftAnalysis {
  warnings: DraftWarning[];
  reads: DraftReads;
}

/**
 * The one call into the check. The check module is gaining `analyseDraft(html)`, which answers
 * both parts; until then the reads are unknown. When it lands this becomes
 * `export const analyse = analyseDraft;`.
 */
export function analyse(html: string): DraftAnalysis {
  return { warnings: checkDraft(html), reads: { paths: [], complete: false } };
}

/** What is stored when the check itself fails: no findings, and reads unknown. */
export const UNKNOWN_ANALYSIS: DraftAnalysis = { warnings: [], reads: { paths: [], complete: false } };

const storedAnalysis = z.object({
  warnings: z.array(draftWarning),
  reads: z.object({ paths: z.array(z.string()), complete: z.boolean() }),
});

export function encodeAnalysis(analysis: DraftAnalysis): string {
  return JSON.stringify({ warnings: analysis.warnings, reads: analysis.reads });
}

/** The stored analysis, or null when there is none (a revision from before it was stored) or it is unreadable. */
export function decodeAnalysis(text: string | null | undefined): DraftAnalysis | null {
  if (!text) return null;
  try {
    const parsed = storedAnalysis.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

import "server-only";
import { z } from "zod";
import { draftWarning, type DraftWarning } from "@/lib/contract/resources";
import { analyseDraft, type DraftReads } from "@/lib/check";

// What the static check says about one revision's html, as the server stores it: the findings
// (`warnings`) and the API paths the dashboard reads (`reads`). It is computed once, when a
// revision is accepted, and kept with the revision (`check_json`), so reading a draft never runs
// the check again: on a hostile 2 MiB draft the check costs about a second of CPU.

export type { DraftReads };

export interface DraftAnalysis {
  warnings: DraftWarning[];
  reads: DraftReads;
}

/** The one call into the check: its findings and the manifest of reads, from one pass. */
export function analyse(html: string): DraftAnalysis {
  // The check also names the page parameters it saw; a draft's answer is the contract's two fields.
  const { warnings, reads } = analyseDraft(html);
  return { warnings, reads };
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

import type { CadenceValue } from "./cadence";
import type { HealthValue } from "./health";

// A triage heuristic: which schools of a book deserve attention first. It is a rank, not a
// target or an SLA. Every signal that adds to the score adds a reason, so a reader can see
// why a row sits where it does from the row's own fields.

interface PriorityInput {
  /** Churned on or before the window's last day. */
  churned: boolean;
  cadence: CadenceValue | null;
  health: HealthValue | null;
  reachPercentile: number | null;
}

const WEIGHTS = {
  silent30d: 40,
  /** No touch in the window, or the last one at least STALE_DAYS before its end. */
  stale: 20,
  healthPoor: 35,
  healthModerate: 20,
  noBaseline: 10,
  reachBottom10: 25,
  reachBottom25: 10,
} as const;
const STALE_DAYS = 14;

/** 0..100; the weights of the strongest signal of each family add up to 100. */
export function priorityScore(input: PriorityInput): { score: number; reasons: string[] } {
  if (input.churned) return { score: 0, reasons: ["churned"] };
  let score = 0;
  const reasons: string[] = [];
  const add = (weight: number, reason: string) => {
    score += weight;
    reasons.push(reason);
  };

  const c = input.cadence;
  if (c) {
    if (c.silent30d) add(WEIGHTS.silent30d, "silent 30 days");
    else if (c.daysSinceContact === null) add(WEIGHTS.stale, "no touch in window");
    else if (c.daysSinceContact >= STALE_DAYS) add(WEIGHTS.stale, `${c.daysSinceContact} days since last touch`);
  }

  const band = input.health?.band;
  if (band === "POOR") add(WEIGHTS.healthPoor, "health POOR");
  else if (band === "MODERATE") add(WEIGHTS.healthModerate, "health MODERATE");
  else if (band === "NO_BASELINE") add(WEIGHTS.noBaseline, "no health baseline");

  const p = input.reachPercentile;
  if (p !== null && p < 10) add(WEIGHTS.reachBottom10, "reach in bottom 10%");
  else if (p !== null && p < 25) add(WEIGHTS.reachBottom25, "reach in bottom 25%");

  return { score, reasons };
}

// Reach: how much of a school's enrolment used the product in its latest week, and where that
// sits within the book.

/**
 * Latest-week active persons ÷ enrolment, clamped to 0..1 (active counts can exceed an
 * out-of-date enrolment). Null when either is unknown or enrolment is not positive.
 */
export function reachOf(activePersons: number | null, enrolment: number | null): number | null {
  if (activePersons === null || enrolment === null || !(enrolment > 0)) return null;
  return Math.min(1, Math.max(0, activePersons / enrolment));
}

/**
 * Percentile rank with ties at their mid-rank: for a value v among the n non-null values,
 * ceil(100 × (below + equal / 2) / n), where below counts values < v and equal counts values
 * = v (itself included). Always 1..100; null stays null. Higher values rank higher; a book
 * where every value is the same ranks every row at 50.
 */
export function percentileRanks(values: readonly (number | null)[]): (number | null)[] {
  const present = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const n = present.length;
  return values.map((v) => {
    if (v === null) return null;
    const below = lowerBound(present, v);
    const equal = lowerBound(present, v, true) - below;
    // Integer numerator and denominator: an exact quotient stays exact under ceil.
    return Math.ceil((200 * below + 100 * equal) / (2 * n));
  });
}

/** First index whose value is ≥ v (or > v with `after`) in an ascending array. */
function lowerBound(sorted: readonly number[], v: number, after = false): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = sorted[mid] as number;
    if (x < v || (after && x === v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

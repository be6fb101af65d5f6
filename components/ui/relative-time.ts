// Times as people read them ("5 minutes ago"), with the exact time kept for a title.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Largest first; a span is told in the largest unit it fills at least once.
const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ["year", 365 * DAY],
  ["month", 30 * DAY],
  ["week", 7 * DAY],
  ["day", DAY],
  ["hour", HOUR],
  ["minute", MINUTE],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "always" });

/** "5 minutes ago", "in 2 hours", or "just now" within 45 seconds either way. */
export function formatRelative(thenMs: number, nowMs: number): string {
  const diff = thenMs - nowMs;
  const span = Math.abs(diff);
  if (span < 45 * SECOND) return "just now";
  for (const [unit, size] of UNITS) {
    // Whole units only, rounded down, so "59 minutes ago" never reads as "1 hour ago".
    if (span >= size) return relative.format(Math.sign(diff) * Math.floor(span / size), unit);
  }
  // 45 to 59 seconds: closer to a minute than to "just now".
  return relative.format(Math.sign(diff), "minute");
}

/** The exact time for a tooltip: "3 Mar 2025, 14:05:09", in the given (or the local) time zone. */
export function formatAbsolute(ms: number, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone }).format(ms);
}

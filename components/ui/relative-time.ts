// Times as people read them ("5 minutes ago"), with the exact time kept for a title. Written out
// by hand rather than with Intl: the page speaks English only, and building an Intl formatter
// loads locale data, a long task on a phone while a page starts.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Unit = "year" | "month" | "week" | "day" | "hour" | "minute";

// Largest first; a span is told in the largest unit it fills at least once.
const UNITS: readonly (readonly [Unit, number])[] = [
  ["year", 365 * DAY],
  ["month", 30 * DAY],
  ["week", 7 * DAY],
  ["day", DAY],
  ["hour", HOUR],
  ["minute", MINUTE],
];

/** "3 days ago" or "in 3 days", as Intl.RelativeTimeFormat("en") words it. */
function told(count: number, unit: Unit, ahead: boolean): string {
  const amount = `${count} ${unit}${count === 1 ? "" : "s"}`;
  return ahead ? `in ${amount}` : `${amount} ago`;
}

/** "5 minutes ago", "in 2 hours", or "just now" within 45 seconds either way. */
export function formatRelative(thenMs: number, nowMs: number): string {
  const diff = thenMs - nowMs;
  const span = Math.abs(diff);
  if (span < 45 * SECOND) return "just now";
  for (const [unit, size] of UNITS) {
    // Whole units only, rounded down, so "59 minutes ago" never reads as "1 hour ago".
    if (span >= size) return told(Math.floor(span / size), unit, diff > 0);
  }
  // 45 to 59 seconds: closer to a minute than to "just now".
  return told(1, "minute", diff > 0);
}

// British English's short months, as en-GB's medium date style has them.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** The exact time for a tooltip: "3 Mar 2025, 14:05:09", in UTC or the local time zone. */
export function formatAbsolute(ms: number, timeZone?: "UTC"): string {
  const d = new Date(ms);
  const utc = timeZone === "UTC";
  const [year, month, day] = utc ? [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()] : [d.getFullYear(), d.getMonth(), d.getDate()];
  const [h, m, s] = utc ? [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()] : [d.getHours(), d.getMinutes(), d.getSeconds()];
  return `${day} ${MONTHS[month]} ${year}, ${two(h)}:${two(m)}:${two(s)}`;
}

// The reporting window of the CX views: whole UTC calendar days. Everything "within the
// window" is judged against [since, until], both inclusive, so a view over a past window
// reads as of that window's end and ignores anything later.

export const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 30;
/** `silent30d` looks at the trailing 30 calendar days that end on the window's last day. */
const SILENT_DAYS = 30;

export interface WindowQuery {
  days?: number;
  from?: string;
  to?: string;
}

export interface CxWindow {
  /** 00:00:00.000 UTC of the first day. */
  since: number;
  /** 23:59:59.999 UTC of the last day: the end instant of the window. */
  until: number;
  sinceDate: string;
  untilDate: string;
  /** 00:00 UTC of the first of the trailing 30 days (last day − 29), whatever the window's length. */
  silentSince: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch ms of 00:00 UTC on a YYYY-MM-DD date; throws on anything else (including 2026-02-30). */
function dayStart(date: string): number {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (isoDay(ms) !== date) throw new RangeError(`not a calendar date: ${date}`);
  return ms;
}

/** The UTC calendar date of an instant. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Days since 1970-01-01 of a YYYY-MM-DD date; NaN for text that is not one. It runs once per
 * stored health point, so it skips `dayStart`'s full validation.
 */
export function dayIndex(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

/** Whole calendar days from `a` to `b` (YYYY-MM-DD); negative when `b` is earlier. */
export function daysBetween(a: string, b: string): number {
  return dayIndex(b) - dayIndex(a);
}

export function addDays(date: string, days: number): string {
  return isoDay(dayStart(date) + days * DAY_MS);
}

/**
 * `from`..`to` when both are given (inclusive calendar days), otherwise the `days` (default 30)
 * calendar days ending today, UTC. The API handler has already checked the ranges and that
 * `from` and `to` come together; an inconsistent query here is a programming error.
 */
export function resolveWindow(q: WindowQuery, now: number): CxWindow {
  let firstDay: string;
  let lastDay: string;
  if (q.from !== undefined || q.to !== undefined) {
    if (q.from === undefined || q.to === undefined) throw new RangeError("from and to go together");
    if (q.from > q.to) throw new RangeError("from must not be after to");
    firstDay = q.from;
    lastDay = q.to;
  } else {
    const days = q.days ?? DEFAULT_WINDOW_DAYS;
    if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`);
    lastDay = isoDay(now);
    firstDay = addDays(lastDay, -(days - 1));
  }
  const since = dayStart(firstDay);
  const lastStart = dayStart(lastDay);
  return {
    since,
    until: lastStart + DAY_MS - 1,
    sinceDate: firstDay,
    untilDate: lastDay,
    silentSince: lastStart - (SILENT_DAYS - 1) * DAY_MS,
  };
}

/** The earliest instant any view needs touches from: the window, or the trailing 30 days if they reach further back. */
export function touchesFrom(w: CxWindow): number {
  return Math.min(w.since, w.silentSince);
}

export function windowIso(w: CxWindow): { sinceIso: string; untilIso: string } {
  return { sinceIso: new Date(w.since).toISOString(), untilIso: new Date(w.until).toISOString() };
}

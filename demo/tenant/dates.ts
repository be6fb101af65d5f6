// UTC-only date helpers. Local time zones are never consulted, so the tenant is the same
// wherever it is generated.

import type { EpochMs, IsoDate } from "./types";

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch ms of 00:00 UTC on a YYYY-MM-DD date; throws on anything else (including 2026-02-30). */
export function parseIsoDate(s: string): EpochMs {
  const m = ISO_DATE.exec(s);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${s}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  if (isoDate(ms) !== s) throw new RangeError(`not a calendar date: ${s}`);
  return ms;
}

/** A tenant's clock reads 12:00 UTC of its reference date: everything in it happened by then. */
export const TENANT_CLOCK_OFFSET_MS = 12 * HOUR_MS;

/**
 * The latest reference date whose tenant has nothing later than `ms`. Before noon UTC that is
 * yesterday: today's tenant would show changes made later today, hours in the future.
 */
export function referenceDateAt(ms: EpochMs): IsoDate {
  return isoDate(ms - TENANT_CLOCK_OFFSET_MS);
}

export function isoDate(ms: EpochMs): IsoDate {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isoDateTime(ms: EpochMs): string {
  return new Date(ms).toISOString();
}

function startOfUtcDay(ms: EpochMs): EpochMs {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** 00:00 UTC of the Monday on or before `ms`. */
export function mondayOnOrBefore(ms: EpochMs): EpochMs {
  const day = startOfUtcDay(ms);
  const dow = new Date(day).getUTCDay(); // 0 = Sunday
  return day - ((dow + 6) % 7) * DAY_MS;
}

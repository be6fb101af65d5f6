// A tiny seeded PRNG so the demo tenant is identical on every machine and in the browser.
// Math.random is never used: any call to it would make two runs of the generator differ.

/** 32-bit string hash (FNV-1a), used to derive independent sub-streams from labels. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small state, fast, and well distributed enough for fake data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  /** The seed this stream was created from. */
  readonly seed: number;
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** One element chosen by relative weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** A shuffled copy (Fisher–Yates); the input is left alone. */
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct elements (or all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[];
  /** Approximately normal (sum of uniforms), clamped to [min, max] when given. */
  normal(mean: number, sd: number, min?: number, max?: number): number;
  /** Lowercase hex string of the given length. */
  hex(length: number): string;
  /** A UUID v4-shaped string. */
  uuid(): string;
  /**
   * An independent stream named by `label`. Each part of the tenant draws from its own fork,
   * so adding draws to one part never shifts the data of another.
   */
  fork(label: string): Rng;
}

export function createRng(seed: number): Rng {
  const base = seed >>> 0;
  const next = mulberry32(base);

  const rng: Rng = {
    seed: base,
    next,
    int(min, max) {
      if (max < min) throw new RangeError(`int(${min}, ${max}): max < min`);
      return min + Math.floor(next() * (max - min + 1));
    },
    float(min, max) {
      return min + next() * (max - min);
    },
    chance(p) {
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError("pick from an empty array");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted(entries) {
      let total = 0;
      for (const [, w] of entries) total += Math.max(0, w);
      if (entries.length === 0 || total <= 0) throw new RangeError("weighted pick needs a positive weight");
      let r = next() * total;
      for (const [value, w] of entries) {
        r -= Math.max(0, w);
        if (r < 0) return value;
      }
      // Floating-point rounding can leave r at exactly 0 after the loop.
      return (entries[entries.length - 1] as readonly [(typeof entries)[number][0], number])[0];
    },
    shuffle(items) {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as (typeof out)[number];
        out[i] = out[j] as (typeof out)[number];
        out[j] = tmp;
      }
      return out;
    },
    sample(items, count) {
      return rng.shuffle(items).slice(0, Math.max(0, count));
    },
    normal(mean, sd, min, max) {
      // Irwin–Hall with 6 terms: cheap, bounded, close enough to a bell curve.
      let s = 0;
      for (let i = 0; i < 6; i++) s += next();
      let v = mean + (s - 3) * sd * Math.SQRT2;
      if (min !== undefined && v < min) v = min;
      if (max !== undefined && v > max) v = max;
      return v;
    },
    hex(length) {
      let out = "";
      while (out.length < length) out += Math.floor(next() * 0x100000000).toString(16).padStart(8, "0");
      return out.slice(0, length);
    },
    uuid() {
      const h = rng.hex(32);
      const variant = "89ab"[Math.floor(next() * 4)] as string;
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    fork(label) {
      return createRng((hashString(label) ^ Math.imul(base, 0x9e3779b1)) >>> 0);
    },
  };
  return rng;
}

/**
 * Unique, increasing numeric-string ids with irregular gaps, the way CRM and SaaS ids look.
 * Values stay below 2^53 so they survive a round trip through a JS number.
 */
export function idSequence(rng: Rng, start: number, maxGap = 97): () => string {
  let current = start;
  return () => {
    current += rng.int(1, maxGap);
    if (current > Number.MAX_SAFE_INTEGER) throw new RangeError("id sequence overflow");
    return String(current);
  };
}

// Shape checks for the JSON the pages read before they are interactive (a watched draft and its
// events, the editor's kept edits and the scenario list): plain functions, so the schema library
// stays out of the pages' first load. A shape returns a fresh value holding only the fields it
// knows, or INVALID.

export const INVALID: unique symbol = Symbol("invalid");
type Shape<T> = (value: unknown) => T | typeof INVALID;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const string: Shape<string> = (v) => (typeof v === "string" ? v : INVALID);
export const nonEmptyString: Shape<string> = (v) => (typeof v === "string" && v.length > 0 ? v : INVALID);
export const boolean: Shape<boolean> = (v) => (typeof v === "boolean" ? v : INVALID);
export const finiteNumber: Shape<number> = (v) => (typeof v === "number" && Number.isFinite(v) ? v : INVALID);
export const integer: Shape<number> = (v) => (typeof v === "number" && Number.isInteger(v) ? v : INVALID);
export const positiveInteger: Shape<number> = (v) => (typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : INVALID);
/** Anything at all, kept as it is (checked where it is used). */
export const anything: Shape<unknown> = (v) => v;

export function literal<const T extends string | number>(value: T): Shape<T> {
  return (v) => (v === value ? value : INVALID);
}

export function oneOf<const T extends string>(...values: T[]): Shape<T> {
  return (v) => (values.includes(v as T) ? (v as T) : INVALID);
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (v) => (v === null ? null : shape(v));
}

export function arrayOf<T>(item: Shape<T>): Shape<T[]> {
  return (v) => {
    if (!Array.isArray(v)) return INVALID;
    const out: T[] = [];
    for (const x of v) {
      const parsed = item(x);
      if (parsed === INVALID) return INVALID;
      out.push(parsed);
    }
    return out;
  };
}

export function recordOf<T>(item: Shape<T>): Shape<Record<string, T>> {
  return (v) => {
    if (!isRecord(v)) return INVALID;
    const out: Record<string, T> = {};
    for (const [k, x] of Object.entries(v)) {
      const parsed = item(x);
      if (parsed === INVALID) return INVALID;
      out[k] = parsed;
    }
    return out;
  };
}

/** A field that may be absent; when present, it has `shape`. */
interface Optional<T> {
  optional: Shape<T>;
}
export const optional = <T>(shape: Shape<T>): Optional<T> => ({ optional: shape });

type Fields = Record<string, Shape<unknown> | Optional<unknown>>;
type Required<F extends Fields> = { [K in keyof F as F[K] extends Optional<unknown> ? never : K]: F[K] extends Shape<infer T> ? T : never };
type Absent<F extends Fields> = { [K in keyof F as F[K] extends Optional<unknown> ? K : never]?: F[K] extends Optional<infer T> ? T : never };
export type Parsed<F extends Fields> = Required<F> & Absent<F>;

export function object<F extends Fields>(fields: F): Shape<Parsed<F>> {
  return (v) => {
    if (!isRecord(v)) return INVALID;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      const raw = v[key];
      const isOptional = typeof field === "object";
      if (isOptional && raw === undefined) continue;
      const parsed = (isOptional ? field.optional : field)(raw);
      if (parsed === INVALID) return INVALID;
      out[key] = parsed;
    }
    return out as Parsed<F>;
  };
}

/** The shape's value for `v`, or null when `v` does not have it. */
export function parseOrNull<T>(shape: Shape<T>, v: unknown): T | null {
  const parsed = shape(v);
  return parsed === INVALID ? null : parsed;
}

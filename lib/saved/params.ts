import "server-only";

/** A path segment as the person typed it; a malformed escape is kept as given (and finds nothing). */
export function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `?revision=N` when it is a positive integer, else undefined (the latest). */
export function revisionParam(raw: string | string[] | undefined | null): number | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : undefined;
}

import { routes } from "@/lib/contract/routes";
import { HOLE } from "./urls";

// The API paths a dashboard reads, read off its code before it runs. The viewer is shown them
// before a dashboard written by someone else may read their live data, and the broker then
// answers only these paths, so what the viewer agreed to is what the dashboard can read.
//
// A path is a registry template (`/crm/:instance/contacts`) with every path value the code
// writes literally filled in (`/crm/users/contacts`): a literal value is narrower than the
// template, and `users` is a different promise from `customers`. A piece the code computes
// stays a `:name` and matches any value.

export interface DraftReads {
  /** Path templates relative to the API base, sorted. */
  paths: string[];
  /**
   * False when the document makes requests whose paths it builds in a way that cannot be read
   * ahead (no API path written anywhere in its code). Those reads are refused once it runs.
   */
  complete: boolean;
}

/** More templates than the registry has endpoints cannot be meant; the cap keeps a hostile document's manifest small. */
export const READS_MAX = 64;

const templates = routes.map((e) => e.path.split("/").slice(1));

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A shape's piece of one segment as a pattern: each hole stands for any characters but "/". */
function segmentPattern(seg: string): RegExp {
  return new RegExp(`^${seg.split(HOLE).map(escapeRe).join("[^/]*")}$`);
}

/**
 * The path part of a URL shape relative to the API base, or null when the shape is not an API
 * path: leading holes (the base), a written base, and the query and fragment are taken off.
 */
function pathOf(shape: string): string | null {
  let s = shape.replace(/^\u0000+/, "");
  s = s.replace(/^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#\u0000]*/i, "");
  s = s.replace(/^\/dashboards\/playground\/api(?=$|[/?#])/, "").replace(/^\/api(?=$|[/?#])/, "");
  const end = s.search(/[?#]/);
  if (end >= 0) s = s.slice(0, end);
  if (!s.startsWith("/") || s.length < 2) return null;
  return s.replace(/\/+$/, "") || null;
}

/**
 * Every registry template a URL shape can name, with literal path values filled in. A hole at
 * the end may stand for several segments (`API + "/crm/" + rest`).
 */
export function templatesOf(shape: string): string[] {
  const path = pathOf(shape);
  if (path === null) return [];
  const segs = path.split("/").slice(1);
  // The first segment names the area of the API; a computed one names nothing.
  if (segs[0] === undefined || segs[0].includes(HOLE)) return [];
  const last = segs[segs.length - 1] ?? "";
  const openEnd = last.endsWith(HOLE);
  const found = new Set<string>();
  for (const t of templates) {
    if (t.length !== segs.length && !(openEnd && t.length > segs.length)) continue;
    const out: string[] = [];
    let ok = true;
    for (let i = 0; i < t.length && ok; i++) {
      const want = t[i] ?? "";
      const have = segs[i];
      if (have === undefined) {
        // Covered by the open end: the template's own segment, as it is.
        out.push(want);
        continue;
      }
      const literal = !have.includes(HOLE);
      if (want.startsWith(":")) out.push(literal ? have : want);
      else if (literal ? have === want : segmentPattern(have).test(want)) out.push(want);
      else ok = false;
    }
    if (ok) found.add(`/${out.join("/")}`);
  }
  return [...found];
}

/**
 * Collects the templates of every URL shape in one document, and what its requests ask for.
 *
 * A request whose URL names no template (`fetch(API + path)` in a helper, or a path decoded at
 * run time) is opaque. A helper is fine when the paths handed to it are written elsewhere in the
 * code; so the manifest is called complete when no request is opaque, or when some path is
 * written somewhere other than straight into a request.
 */
export class ReadsCollector {
  private readonly paths = new Set<string>();
  private readonly direct = new Set<string>();
  private opaque = 0;

  /** The URL of a request, as far as it can be read (null: nothing of it is a string). */
  request(shape: string | null): void {
    const found = shape === null ? [] : templatesOf(shape);
    if (found.length === 0) {
      // Another server entirely is the check's external-resource finding, not a read of the API.
      if (shape === null || !/^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#\u0000]/i.test(shape)) this.opaque++;
      return;
    }
    for (const p of found) this.direct.add(p);
    this.add(shape ?? "");
  }

  add(shape: string): void {
    if (this.paths.size >= READS_MAX) return;
    for (const p of templatesOf(shape)) {
      if (this.paths.size >= READS_MAX) break;
      this.paths.add(p);
    }
  }

  result(makesRequests: boolean): DraftReads {
    const paths = [...this.paths].sort();
    if (!makesRequests) return { paths, complete: true };
    const handedOn = paths.some((p) => !this.direct.has(p));
    return { paths, complete: paths.length > 0 && (this.opaque === 0 || handedOn) };
  }
}

/** Whether a path (relative to the API base, no query) is one of the manifest's templates. */
export function readAllowed(paths: readonly string[], pathname: string): boolean {
  const segs = pathname.split("/");
  return paths.some((p) => {
    const t = p.split("/");
    if (t.length !== segs.length) return false;
    return t.every((want, i) => {
      const have = segs[i] ?? "";
      if (want.startsWith(":")) return have !== "";
      if (want === have) return true;
      // The request's path values arrive percent-encoded as the dashboard wrote them.
      try {
        return decodeURIComponent(have) === want;
      } catch {
        return false;
      }
    });
  });
}

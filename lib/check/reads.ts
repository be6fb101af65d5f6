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
   * False when some request's URL cannot be read ahead to one path (the check says where). Those
   * reads are refused once it runs on a viewer's live data.
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

/** What one URL a request may use reads: an endpoint, nothing of the API, or a path the check cannot tell. */
type Resolution = { kind: "path"; path: string } | { kind: "outside" } | { kind: "unresolved" };

const ANY_HOLE = /[\u0000\u0001]/;

/**
 * The one registry template a URL shape reads, with literal path values filled in. A piece the
 * code computes inside the path stands for one path value; one at the end of the path that could
 * hold a "/" (anything but a number, an encodeURIComponent or a query string) may also go on to
 * further segments. A shape that fits more than one template is not guessed at.
 */
export function resolveShape(shape: string): Resolution {
  if (/^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#\u0000\u0001]/i.test(shape)) return { kind: "outside" };
  const rest = shape.replace(/^[\u0000\u0001]+/, "");
  // Nothing but computed pieces: no telling what it reads.
  if (rest === "" && shape !== "") return { kind: "unresolved" };
  let s = rest.replace(/^\/dashboards\/playground\/api(?=$|[/?#\u0000\u0001])/, "").replace(/^\/api(?=$|[/?#\u0000\u0001])/, "");
  const end = s.search(/[?#]/);
  if (end >= 0) s = s.slice(0, end);
  s = s.replace(/\/+$/, "");
  if (!s.startsWith("/")) return { kind: "outside" };
  const segs = s.split("/").slice(1);
  const first = segs[0] ?? "";
  if (first === "" || ANY_HOLE.test(first)) return { kind: "unresolved" };
  const last = segs[segs.length - 1] ?? "";
  const openEnd = last.includes(HOLE);
  const found = new Set<string>();
  for (const t of templates) {
    if (t.length !== segs.length && !(openEnd && t.length > segs.length)) continue;
    const out: string[] = [];
    let ok = true;
    for (let i = 0; i < t.length && ok; i++) {
      const want = t[i] ?? "";
      const have = segs[i];
      if (have === undefined) {
        out.push(want);
        continue;
      }
      const literal = !ANY_HOLE.test(have);
      if (want.startsWith(":")) out.push(literal ? have : want);
      else if (literal ? have === want : segmentPattern(have.replace(/\u0001/g, HOLE)).test(want)) out.push(want);
      else ok = false;
    }
    if (ok) found.add(`/${out.join("/")}`);
  }
  if (found.size === 1) return { kind: "path", path: [...found][0] ?? "" };
  if (found.size === 0) return segs.some((x) => ANY_HOLE.test(x)) && !apiAreas.has(first) ? { kind: "unresolved" } : { kind: "outside" };
  return { kind: "unresolved" };
}

const apiAreas = new Set(templates.map((t) => t[0] ?? ""));

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

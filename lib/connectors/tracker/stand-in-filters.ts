import "server-only";
import type { IssueRec, PersonRec, ProjectRec, StateRec, TeamRec } from "./stand-in-data";

// Linear's filter inputs (IssueFilter, ProjectFilter, UserFilter, TeamFilter, their comparators,
// `and`/`or`, and `null` on optional relations), evaluated over the stand-in's records. The schema
// has already checked their shape. A filter key the stand-in cannot evaluate is refused by name:
// ignoring it would answer a wider list than Linear's, and quietly.

export class FilterNotEmulated extends Error {
  constructor(readonly at: string) {
    super(`The stand-in does not filter by ${at}.`);
  }
}

export interface FilterEnv {
  /** The email of the person the request acts as, for `isMe`. */
  viewer: string;
  /** The tenant's clock, for durations such as "-P2W". */
  now: number;
}

type Pred<T> = (t: T) => boolean;
/** Builds the predicate a filter input describes; `at` names where it sits in the query, for refusals. */
export type Build<T> = (input: unknown, at: string, env: FilterEnv) => Pred<T>;

function entries(input: unknown, at: string): [string, unknown][] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new FilterNotEmulated(at);
  // Input objects from GraphQL literals have no prototype; an explicit null sets no condition.
  return Object.entries(input).filter(([, v]) => v !== null && v !== undefined);
}

/** An ISO 8601 date-time, or a duration relative to now ("-P2W", "P1DT2H"), as epoch ms. */
function instant(v: unknown, at: string, env: FilterEnv): number {
  if (typeof v !== "string") throw new FilterNotEmulated(at);
  const d = /^([+-])?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(v);
  if (d && v.replace(/^[+-]?P/, "").replace("T", "") !== "") {
    const [, sign, y, mo, w, day, h, mi, s] = d;
    const n = (x: string | undefined) => Number(x ?? 0);
    const ms = ((n(y) * 365 + n(mo) * 30 + n(w) * 7 + n(day)) * 24 * 3600 + n(h) * 3600 + n(mi) * 60 + n(s)) * 1000;
    return env.now + (sign === "-" ? -ms : ms);
  }
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new FilterNotEmulated(at);
  return t;
}

type Scalar = string | number | boolean | null;

/** A comparator (StringComparator, NumberComparator, DateComparator, IDComparator and their nullable kinds) on one value. */
function comparator<T>(get: (t: T) => Scalar, kind: "string" | "number" | "date" | "boolean"): Build<T> {
  return (input, at, env) => {
    const checks: Pred<Scalar>[] = [];
    const norm = (v: unknown, where: string): Scalar => {
      if (kind === "date") return instant(v, where, env);
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
      throw new FilterNotEmulated(where);
    };
    const list = (v: unknown, where: string): Scalar[] => {
      if (!Array.isArray(v)) throw new FilterNotEmulated(where);
      return v.map((x) => norm(x, where));
    };
    const text = (v: Scalar) => (v === null ? null : String(v));
    const fold = (v: Scalar) => text(v)?.toLowerCase() ?? null;
    const deaccent = (v: Scalar) => fold(v)?.normalize("NFD").replace(/\p{Diacritic}/gu, "") ?? null;
    const num = (v: Scalar) => (v === null ? null : Number(v));
    for (const [op, raw] of entries(input, at)) {
      const where = `${at}.${op}`;
      switch (op) {
        case "eq": {
          const x = norm(raw, where);
          checks.push((v) => v === x);
          break;
        }
        case "neq": {
          const x = norm(raw, where);
          checks.push((v) => v !== x);
          break;
        }
        case "in": {
          const xs = list(raw, where);
          checks.push((v) => v !== null && xs.includes(v));
          break;
        }
        case "nin": {
          const xs = list(raw, where);
          checks.push((v) => v === null || !xs.includes(v));
          break;
        }
        case "null":
          checks.push((v) => (v === null) === (raw === true));
          break;
        case "gt":
        case "gte":
        case "lt":
        case "lte": {
          const x = Number(norm(raw, where));
          checks.push((v) => {
            const n = num(v);
            if (n === null) return false;
            return op === "gt" ? n > x : op === "gte" ? n >= x : op === "lt" ? n < x : n <= x;
          });
          break;
        }
        case "eqIgnoreCase":
        case "neqIgnoreCase": {
          const x = fold(norm(raw, where));
          checks.push((v) => (fold(v) === x) === (op === "eqIgnoreCase"));
          break;
        }
        case "contains":
        case "notContains":
        case "containsIgnoreCase":
        case "notContainsIgnoreCase":
        case "containsIgnoreCaseAndAccent": {
          const folded = op !== "contains" && op !== "notContains";
          const f = op === "containsIgnoreCaseAndAccent" ? deaccent : folded ? fold : text;
          const x = f(norm(raw, where)) ?? "";
          const positive = !op.startsWith("not");
          checks.push((v) => (f(v)?.includes(x) ?? false) === positive);
          break;
        }
        case "startsWith":
        case "notStartsWith":
        case "startsWithIgnoreCase": {
          const f = op === "startsWithIgnoreCase" ? fold : text;
          const x = f(norm(raw, where)) ?? "";
          checks.push((v) => (f(v)?.startsWith(x) ?? false) === (op !== "notStartsWith"));
          break;
        }
        case "endsWith":
        case "notEndsWith": {
          const x = text(norm(raw, where)) ?? "";
          checks.push((v) => (text(v)?.endsWith(x) ?? false) === (op === "endsWith"));
          break;
        }
        default:
          throw new FilterNotEmulated(where);
      }
    }
    return (t) => {
      const v = get(t);
      return checks.every((c) => c(v));
    };
  };
}

/** An optional relation (NullableProjectFilter, NullableUserFilter): `null` on the relation itself, the rest on its target. */
function relation<T, R>(get: (t: T) => R | null, inner: () => Build<R>): Build<T> {
  return (input, at, env) => {
    const rest = entries(input, at).filter(([k]) => k !== "null");
    const isNull = entries(input, at).find(([k]) => k === "null")?.[1];
    const pred = rest.length > 0 ? inner()(Object.fromEntries(rest), at, env) : null;
    return (t) => {
      const r = get(t);
      if (isNull !== undefined && (r === null) !== (isNull === true)) return false;
      if (!pred) return true;
      return r !== null && pred(r);
    };
  };
}

/** A filter object: each known key builds a condition, and `and`/`or` combine filters of the same kind. */
function filterOf<T>(fields: () => Record<string, Build<T>>): Build<T> {
  const self: Build<T> = (input, at, env) => {
    const known = fields();
    const preds: Pred<T>[] = [];
    for (const [key, value] of entries(input, at)) {
      const where = `${at}.${key}`;
      if (key === "and" || key === "or") {
        if (!Array.isArray(value)) throw new FilterNotEmulated(where);
        const parts = value.map((v, i) => self(v, `${where}[${i}]`, env));
        preds.push(key === "and" ? (t) => parts.every((p) => p(t)) : (t) => parts.some((p) => p(t)));
        continue;
      }
      const build = known[key];
      if (!build) throw new FilterNotEmulated(where);
      preds.push(build(value, where, env));
    }
    return (t) => preds.every((p) => p(t));
  };
  return self;
}

export const teamFilter: Build<TeamRec> = filterOf(() => ({
  id: comparator((t: TeamRec) => t.id, "string"),
  key: comparator((t: TeamRec) => t.key, "string"),
  name: comparator((t: TeamRec) => t.name, "string"),
}));

export const stateFilter: Build<StateRec> = filterOf(() => ({
  id: comparator((s: StateRec) => s.id, "string"),
  name: comparator((s: StateRec) => s.name, "string"),
  type: comparator((s: StateRec) => s.type, "string"),
  position: comparator((s: StateRec) => s.position, "number"),
}));

export const userFilter: Build<PersonRec> = filterOf(() => ({
  id: comparator((p: PersonRec) => p.id, "string"),
  email: comparator((p: PersonRec) => p.email, "string"),
  name: comparator((p: PersonRec) => p.name, "string"),
  displayName: comparator((p: PersonRec) => p.displayName, "string"),
  active: comparator((p: PersonRec) => p.active, "boolean"),
  admin: comparator((p: PersonRec) => p.admin, "boolean"),
  isMe: (input, at, env) => comparator((p: PersonRec) => p.email === env.viewer, "boolean")(input, at, env),
}));

export const projectFilter: Build<ProjectRec> = filterOf(() => ({
  id: comparator((p: ProjectRec) => p.id, "string"),
  name: comparator((p: ProjectRec) => p.name, "string"),
  slugId: comparator((p: ProjectRec) => p.slugId, "string"),
}));

export const issueFilter: Build<IssueRec> = filterOf(() => ({
  id: comparator((i: IssueRec) => i.id, "string"),
  number: comparator((i: IssueRec) => i.number, "number"),
  title: comparator((i: IssueRec) => i.title, "string"),
  priority: comparator((i: IssueRec) => i.priority, "number"),
  createdAt: comparator((i: IssueRec) => i.createdAt, "date"),
  updatedAt: comparator((i: IssueRec) => i.updatedAt, "date"),
  state: (input, at, env) => {
    const p = stateFilter(input, at, env);
    return (i: IssueRec) => p(i.state);
  },
  team: (input, at, env) => {
    const p = teamFilter(input, at, env);
    return (i: IssueRec) => p(i.team);
  },
  project: relation((i: IssueRec) => i.project, () => projectFilter),
  assignee: relation((i: IssueRec) => i.assignee, () => userFilter),
}));

/** A predicate for a filter argument; no filter keeps everything. */
export function matcher<T>(build: Build<T>, filter: unknown, at: string, env: FilterEnv): Pred<T> {
  if (filter === null || filter === undefined) return () => true;
  return build(filter, at, env);
}

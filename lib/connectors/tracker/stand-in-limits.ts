import "server-only";
import {
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { RATE_LIMIT_HEADERS } from "./linear-errors";

// Linear's rate limits as the stand-in keeps them: per person, a leaky bucket of requests and one
// of query complexity, each refilled at a constant rate (its limit per period), reported on every
// answer in Linear's headers. A reset is when the bucket is full again; a refusal says in
// Retry-After when the next request would pass.
//
// The mounted stand-in meters and reports but never refuses (`enforce: false`): the browser suite
// and the benchmarks read it far faster than any person could, and what they measure is the
// service, not a bucket. Tests switch refusals on with `configure`.

interface LinearLimits {
  /** Requests per person per period. */
  requests: number;
  /** Complexity points per person per period. */
  complexity: number;
  periodMs: number;
  /** Refuse with RATELIMITED when a bucket cannot pay; otherwise only meter and report. */
  enforce: boolean;
  /** The status a refusal is sent with: Linear sends RATELIMITED with 400; a gateway in between may say 429. */
  status: 400 | 429;
}

/** Of the order Linear documents for a user's OAuth token; Linear revises its figures, and the client reads the headers, never these. */
const DEFAULT_LINEAR_LIMITS: LinearLimits = { requests: 5_000, complexity: 3_000_000, periodMs: 3_600_000, enforce: false, status: 400 };

interface Bucket {
  requests: number;
  complexity: number;
  at: number;
}

interface Spent {
  headers: Record<string, string>;
  /** When refused: milliseconds until the request would pass. */
  refusedForMs: number | null;
}

export class LinearRateLimits {
  private limits: LinearLimits = DEFAULT_LINEAR_LIMITS;
  // One bucket per account the stand-in knows (and one for anonymous callers): bounded by the tenant.
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number) {}

  get current(): LinearLimits {
    return this.limits;
  }

  /** New limits, with every bucket full. */
  configure(limits: Partial<LinearLimits>): void {
    this.limits = { ...this.limits, ...limits };
    this.buckets.clear();
  }

  /** Back to the defaults, with every bucket full. */
  reset(): void {
    this.configure(DEFAULT_LINEAR_LIMITS);
  }

  /** Spends one request and `cost` complexity points of `who`'s budget, unless refused. */
  spend(who: string, cost: number): Spent {
    const now = this.now();
    const { requests, complexity, periodMs, enforce } = this.limits;
    const b = this.refill(who, now);
    const requestWait = b.requests >= 1 ? 0 : ((1 - b.requests) * periodMs) / requests;
    const wanted = Math.min(cost, complexity);
    const complexityWait = b.complexity >= wanted ? 0 : ((wanted - b.complexity) * periodMs) / complexity;
    const wait = Math.max(requestWait, complexityWait);
    if (enforce && wait > 0) return { headers: this.headers(b, now, cost), refusedForMs: Math.ceil(wait) };
    b.requests = Math.max(0, b.requests - 1);
    b.complexity = Math.max(0, b.complexity - cost);
    return { headers: this.headers(b, now, cost), refusedForMs: null };
  }

  private refill(who: string, now: number): Bucket {
    const { requests, complexity, periodMs } = this.limits;
    const b = this.buckets.get(who) ?? { requests, complexity, at: now };
    const elapsed = Math.max(0, now - b.at);
    b.requests = Math.min(requests, b.requests + (elapsed * requests) / periodMs);
    b.complexity = Math.min(complexity, b.complexity + (elapsed * complexity) / periodMs);
    b.at = now;
    this.buckets.set(who, b);
    return b;
  }

  private headers(b: Bucket, now: number, cost: number): Record<string, string> {
    const { requests, complexity, periodMs } = this.limits;
    const fullAt = (level: number, limit: number) => String(Math.ceil(now + ((limit - level) * periodMs) / limit));
    return {
      [RATE_LIMIT_HEADERS.requestsLimit]: String(requests),
      [RATE_LIMIT_HEADERS.requestsRemaining]: String(Math.floor(b.requests)),
      [RATE_LIMIT_HEADERS.requestsReset]: fullAt(b.requests, requests),
      [RATE_LIMIT_HEADERS.complexity]: String(cost),
      [RATE_LIMIT_HEADERS.complexityLimit]: String(complexity),
      [RATE_LIMIT_HEADERS.complexityRemaining]: String(Math.floor(b.complexity)),
      [RATE_LIMIT_HEADERS.complexityReset]: fullAt(b.complexity, complexity),
    };
  }
}

// ── Query complexity ──────────────────────────────────────────────────────────────────────

/** Linear's default page size, which a connection's cost is multiplied by when the query names none. */
const DEFAULT_PAGE = 50;

/**
 * A query's complexity as Linear describes its scoring: a tenth of a point per scalar field, a
 * point per object, and a connection's contents counted once per node it may return. Linear's
 * exact weights are its own; this is the stand-in's estimate, reported in X-Complexity.
 */
export function queryComplexity(schema: GraphQLSchema, doc: DocumentNode, op: OperationDefinitionNode, variables: Record<string, unknown>): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const root = schema.getRootType(op.operation);
  if (!root) return 0;

  const pageSize = (field: FieldNode): number => {
    for (const arg of field.arguments ?? []) {
      if (arg.name.value !== "first" && arg.name.value !== "last") continue;
      const v = arg.value;
      const n = v.kind === Kind.INT ? Number(v.value) : v.kind === Kind.VARIABLE ? variables[v.name.value] : undefined;
      if (typeof n === "number" && Number.isFinite(n)) return Math.max(0, n);
    }
    return DEFAULT_PAGE;
  };

  // Validation has ruled out fragment cycles; the depth bound only keeps a bad document cheap.
  const cost = (set: SelectionSetNode, parent: GraphQLCompositeType, depth: number): number => {
    if (depth > 64) return 0;
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith("__")) continue;
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
        if (!def) continue;
        const named = getNamedType(def.type);
        if (!sel.selectionSet || !isCompositeType(named)) {
          total += 0.1;
          continue;
        }
        const inner = cost(sel.selectionSet, named, depth + 1);
        total += 1 + inner * (named.name.endsWith("Connection") ? pageSize(sel) : 1);
      } else {
        const frag = sel.kind === Kind.FRAGMENT_SPREAD ? fragments.get(sel.name.value) : sel;
        if (!frag) continue;
        const on = frag.typeCondition ? schema.getType(frag.typeCondition.name.value) : parent;
        if (on && isCompositeType(on)) total += cost(frag.selectionSet, on, depth + 1);
      }
    }
    return total;
  };
  return Math.ceil(cost(op.selectionSet, root, 0));
}

import "server-only";
import { retryAfterMs, type UpstreamFailure } from "@/lib/connectors/http";

// Linear's words for what went wrong, shared by the stand-in (which answers in them) and the
// client (which reads them). Each GraphQL error names its kind twice: `extensions.type`, the
// lower-case words Linear's SDK sorts errors by, and `extensions.code`, the upper-case code. The
// HTTP status is a weaker signal: Linear sends a rate limit as 400 as well as 429, so a client
// that trusts the status alone misreads it.

export const LINEAR_ERRORS = {
  authentication: { type: "authentication error", code: "AUTHENTICATION_ERROR", statusCode: 401 },
  forbidden: { type: "forbidden", code: "FORBIDDEN", statusCode: 403 },
  ratelimited: { type: "ratelimited", code: "RATELIMITED", statusCode: 429 },
  invalidInput: { type: "invalid input", code: "INVALID_INPUT", statusCode: 400 },
  graphql: { type: "graphql error", code: "GRAPHQL_VALIDATION_FAILED", statusCode: 400 },
  parse: { type: "graphql error", code: "GRAPHQL_PARSE_FAILED", statusCode: 400 },
  badRequest: { type: "graphql error", code: "BAD_USER_INPUT", statusCode: 400 },
  internal: { type: "internal error", code: "INTERNAL_SERVER_ERROR", statusCode: 500 },
} as const;

export type LinearErrorKind = keyof typeof LINEAR_ERRORS;

/** The rate-limit headers Linear sends with every answer: a budget of requests and one of query complexity, per person. */
export const RATE_LIMIT_HEADERS = {
  requestsLimit: "x-ratelimit-requests-limit",
  requestsRemaining: "x-ratelimit-requests-remaining",
  requestsReset: "x-ratelimit-requests-reset",
  complexity: "x-complexity",
  complexityLimit: "x-ratelimit-complexity-limit",
  complexityRemaining: "x-ratelimit-complexity-remaining",
  complexityReset: "x-ratelimit-complexity-reset",
} as const;

/** One GraphQL error as far as sorting it needs. */
export interface LinearGraphQLErrorLike {
  message: string;
  extensions?: { type?: unknown; code?: unknown } | undefined;
}

// Linear's SDK sorts by `type` first; these are its types, in the failure kinds of the HTTP core.
const byType: Record<string, UpstreamFailure> = {
  "authentication error": "unauthorized",
  forbidden: "forbidden",
  "feature not accessible": "forbidden",
  // A plan's usage limit does not pass by waiting a few seconds: the workspace cannot do this.
  "usage limit exceeded": "forbidden",
  ratelimited: "rate_limited",
  "internal error": "server",
  "network error": "server",
  "lock timeout": "server",
  "bootstrap error": "server",
  // The request itself was wrong: the client sent something Linear does not accept.
  "invalid input": "bad_response",
  "user error": "bad_response",
  "graphql error": "bad_response",
};

const byCode: Record<string, UpstreamFailure> = {
  AUTHENTICATION_ERROR: "unauthorized",
  UNAUTHENTICATED: "unauthorized",
  FORBIDDEN: "forbidden",
  RATELIMITED: "rate_limited",
  INTERNAL_SERVER_ERROR: "server",
};

/**
 * What a Linear GraphQL error means for the read, by its type, then its code (as Linear's SDK
 * sorts them); a code naming something not found is `not_found`; anything else Linear refused is
 * `bad_response`, since the request or the answer is not what this client expects.
 */
export function failureOfLinearError(error: LinearGraphQLErrorLike): UpstreamFailure {
  const type = typeof error.extensions?.type === "string" ? error.extensions.type.toLowerCase() : undefined;
  const code = typeof error.extensions?.code === "string" ? error.extensions.code.toUpperCase() : undefined;
  const fromType = type === undefined ? undefined : byType[type];
  if (fromType && fromType !== "bad_response") return fromType;
  const fromCode = code === undefined ? undefined : byCode[code];
  if (fromCode) return fromCode;
  if (code?.includes("NOT_FOUND")) return "not_found";
  return "bad_response";
}

/** A reset header as epoch milliseconds, as Linear sends them; a value in seconds is read as seconds. */
function epochMs(header: string | null): number | null {
  if (header === null || !/^\d+(\.\d+)?$/.test(header.trim())) return null;
  const n = Number(header.trim());
  return n < 1e11 ? n * 1000 : n;
}

function count(header: string | null): number | null {
  if (header === null || !/^-?\d+(\.\d+)?$/.test(header.trim())) return null;
  return Number(header.trim());
}

/**
 * How long a RATELIMITED answer asks the client to wait: its Retry-After when it sent one, else
 * until the exhausted budget resets (requests or complexity, the later if both are spent). With
 * neither budget spent, the earliest reset it names; null when it names nothing.
 */
export function linearRateLimitWait(headers: Headers, now: number): number | null {
  const retry = retryAfterMs(headers.get("retry-after"), now);
  if (retry !== null) return retry;
  const budgets = [
    { remaining: count(headers.get(RATE_LIMIT_HEADERS.requestsRemaining)), reset: epochMs(headers.get(RATE_LIMIT_HEADERS.requestsReset)) },
    { remaining: count(headers.get(RATE_LIMIT_HEADERS.complexityRemaining)), reset: epochMs(headers.get(RATE_LIMIT_HEADERS.complexityReset)) },
  ].filter((b): b is { remaining: number | null; reset: number } => b.reset !== null);
  if (budgets.length === 0) return null;
  const spent = budgets.filter((b) => b.remaining !== null && b.remaining <= 0);
  const at = spent.length > 0 ? Math.max(...spent.map((b) => b.reset)) : Math.min(...budgets.map((b) => b.reset));
  return Math.max(0, at - now);
}

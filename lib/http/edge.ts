import "server-only";
import type { z } from "zod";
import { ApiError, type ErrorCode } from "@/lib/contract/errors";
import { contentType, readBodyCapped, utf8Charset } from "./body";
import { errorResponse, fromThrown } from "./respond";
import { REQUEST_ID_HEADER, serverLog, stackOf } from "./server-log";

// The one edge every route handler goes through. A route file is a single `defineRoute` call;
// the edge owns, in this order and for every route alike:
//   method (405 envelope with Allow) → path values (checked once, never decoded twice) →
//   origin (where a write may come from; the origin the answer's URLs are written under) →
//   guard (session, permission, human action) → limit (the allowance the request spends) →
//   query → body → handler,
// then maps anything thrown to the error envelope (an unexpected failure logs its stack and
// discloses nothing) and composes headers onto the answer without replacing what the handler
// set. Parsing helpers below give body and query errors one wording: the field named, then what
// it takes.

export type Verb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
export type Method = Verb | "HEAD";
const ORDER: readonly Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Path values as the router hands them over: each segment percent-decoded exactly once. */
export type RawParams = Record<string, string | string[] | undefined>;
/** The second argument the framework passes a route handler. */
interface RouteContext {
  params?: Promise<RawParams> | RawParams;
}

interface Call<P, O = undefined, G = undefined, Q = undefined, B = undefined> {
  request: Request;
  url: URL;
  params: P;
  /** What the origin stage answered (the origin the answer's URLs are written under, for one). */
  origin: O;
  /** What the guard established (the signed-in person, for one). */
  who: G;
  query: Q;
  body: B;
}

interface MethodSpec<P, O, G, Q, B> {
  /** Refuses a request from where it may not come (403 cross_site_write, 400 untrusted_host); answers what the handler writes URLs under. */
  origin?: (request: Request) => O | Promise<O>;
  /** Refuses by throwing an ApiError (401, 403, …); answers what the handler may rely on. */
  guard?: (request: Request, params: P) => Promise<G>;
  /** Spends what the request costs of an allowance; refuses (429 with Retry-After) once it is spent. */
  limit?: (request: Request, params: P) => Promise<void>;
  query?: (search: URLSearchParams) => Q;
  body?: (request: Request) => Promise<B>;
  handle: (call: Call<P, O, G, Q, B>) => Response | Promise<Response>;
}

/** A method's spec with its types settled; see `on` in defineRoute. */
export interface BoundMethod<P> {
  readonly run: (request: Request, url: URL, params: P) => Promise<Response>;
}

export type On<P> = <O, G, Q, B>(spec: MethodSpec<P, O, G, Q, B>) => BoundMethod<P>;

interface RouteDefinition<P> {
  /** Checks and shapes the path values; throws an ApiError (400 invalid_path, 404) for bad ones. */
  params?: (raw: RawParams) => P;
  methods: (on: On<P>) => Partial<Record<Verb, BoundMethod<P>>>;
  /** The hint of the 405 for any method the route does not take. */
  refuse: string;
  /** The Allow of that 405, when the path answers more than this route does (a page answers its GET). */
  allow?: string;
  /** Added to every answer (errors too) unless the handler set the header itself. */
  headers?: Record<string, string>;
  /** Where an unexpected failure is written; defaults to the console. Never given the URL: write tokens are capabilities. */
  log?: (line: string) => void;
}

export type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;
export type RouteModule = Record<Method, RouteHandler>;

const on = <P,>(spec: MethodSpec<P, unknown, unknown, unknown, unknown>): BoundMethod<P> => ({
  async run(request, url, params) {
    const origin = spec.origin ? await spec.origin(request) : undefined;
    const who = spec.guard ? await spec.guard(request, params) : undefined;
    if (spec.limit) await spec.limit(request, params);
    const query = spec.query ? spec.query(url.searchParams) : undefined;
    const body = spec.body ? await spec.body(request) : undefined;
    return spec.handle({ request, url, params, origin, who, query, body });
  },
});

/**
 * Every method's handler for a route file:
 * `export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({...})`.
 * HEAD runs GET and drops the body; every method not given answers the 405 envelope.
 */
export function defineRoute<P = RawParams>(def: RouteDefinition<P>): RouteModule {
  const methods = def.methods(on as On<P>);
  const allow = def.allow ?? ORDER.filter((m) => (m === "HEAD" ? methods.GET : methods[m])).join(", ");
  const log = def.log ?? null;

  const handle = (method: Method): RouteHandler =>
    async function routeHandler(request, context) {
      const started = performance.now();
      let response: Response;
      try {
        const bound = methods[method === "HEAD" ? "GET" : method];
        if (!bound) {
          response = errorResponse("method_not_allowed", def.refuse, { allow });
        } else {
          const raw = (await context?.params) ?? {};
          const params = def.params ? def.params(raw) : (raw as P);
          response = await bound.run(request, new URL(request.url), params);
          if (method === "HEAD") response = new Response(null, { status: response.status, headers: response.headers });
        }
      } catch (err) {
        response = fromThrown(err, (e) =>
          log
            ? log(`unexpected failure: ${stackOf(e)}`)
            : // The request edge puts the request's id on it (lib/ops/requests.ts), so the stack joins the request's log line.
              serverLog("error", "unexpected failure", { component: "edge", requestId: request.headers.get(REQUEST_ID_HEADER) ?? undefined, stack: stackOf(e) }),
        );
      }
      return finish(response, def.headers, started);
    };

  return {
    GET: handle("GET"),
    HEAD: handle("HEAD"),
    POST: handle("POST"),
    PUT: handle("PUT"),
    PATCH: handle("PATCH"),
    DELETE: handle("DELETE"),
    OPTIONS: handle("OPTIONS"),
  };
}

function finish(response: Response, headers: Record<string, string> | undefined, started: number): Response {
  try {
    for (const [k, v] of Object.entries(headers ?? {})) if (!response.headers.has(k)) response.headers.set(k, v);
    // Server time, for browser devtools and the benchmarks.
    response.headers.set("server-timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
    return response;
  } catch {
    // Headers of a response built from a fetch are immutable: copy them once.
    const copy = new Response(response.body, response);
    for (const [k, v] of Object.entries(headers ?? {})) if (!copy.headers.has(k)) copy.headers.set(k, v);
    return copy;
  }
}

/**
 * The request with some headers replaced, for a library that answers it and decides by them (the
 * MCP SDK's transport refuses by Accept). Method, URL and signal are kept; the body is not, so it
 * is read first.
 */
export function withHeaders(request: Request, replaced: Record<string, string>): Request {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(replaced)) headers.set(name, value);
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

/**
 * A request handed on to a handler that answers a Request (a stand-in, a loopback server's
 * handler): the one place outside the framework a request is made, so what a handler receives is
 * built one way. A body is read (and bounded) by the caller first.
 */
export function handedOn(url: string, init: { method?: string; headers: HeadersInit; body?: Uint8Array<ArrayBuffer> | Buffer; signal?: AbortSignal }): Request {
  const hasBody = init.method !== undefined && init.method !== "GET" && init.method !== "HEAD";
  return new Request(url, { method: init.method, headers: init.headers, signal: init.signal, body: hasBody ? (init.body as BodyInit | undefined) : undefined });
}

// ---------------------------------------------------------------------------------------------
// Path values

/** One path value, or 404 when the router gave a list or nothing. */
export function oneParam(raw: RawParams, name: string): string {
  const value = raw[name];
  if (typeof value !== "string") throw new ApiError("not_found");
  return value;
}

/**
 * A catch-all's segments as one path with each segment percent-encoded again, the form the
 * endpoint registry matches (it decodes each segment once itself).
 */
export function restPath(raw: RawParams, name = "path"): string {
  const value = raw[name];
  const segments = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return `/${segments.map(encodeURIComponent).join("/")}`;
}

// ---------------------------------------------------------------------------------------------
// Bodies and queries, with one wording for what is wrong

/** A field's path as code would name it: `examples["/cx/book"]`, `rows[2].name`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) =>
      typeof key === "number" ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(String(key)) ? `${i === 0 ? "" : "."}${String(key)}` : `[${JSON.stringify(String(key))}]`,
    )
    .join("");
}

/** `field: message` for a zod failure, the field named first when there is one. */
function issueText(error: z.ZodError, fallback = "not understood"): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${pathText(issue.path)}: ` : "";
  return `${where}${issue?.message ?? fallback}`.slice(0, 300);
}

/** Parses with a schema; a failure is `code` with the field named. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, code: ErrorCode): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError(code, issueText(parsed.error));
}

/** Strict UTF-8: a byte sequence that is not UTF-8 is refused, never replaced. */
function decodeUtf8(bytes: Uint8Array, code: ErrorCode, keepBom = false): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: keepBom }).decode(bytes);
  } catch {
    throw new ApiError(code, "The body is not valid UTF-8.");
  }
}

interface BodyRules {
  /** The media type taken (its essence, lower case). */
  type: string;
  /** The hint when another media type is sent. */
  typeHint: string;
  max: number;
  tooLarge: { code: ErrorCode; hint: string };
  /** The code for a body that is not UTF-8 or does not parse. */
  invalid: ErrorCode;
}

/** The body as text: the media type checked, the charset UTF-8 (or unstated), at most `max` bytes, strictly decoded. */
export async function readTextBody(request: Request, rules: BodyRules, keepBom = false): Promise<string> {
  const { essence, charset } = contentType(request);
  if (essence !== rules.type) throw new ApiError("unsupported_media_type", rules.typeHint);
  if (!utf8Charset(charset)) throw new ApiError("unsupported_media_type", "The body must be UTF-8.");
  const bytes = await readBodyCapped(request, rules.max);
  if (!bytes) throw new ApiError(rules.tooLarge.code, rules.tooLarge.hint);
  return decodeUtf8(bytes, rules.invalid, keepBom);
}

/** A JSON body read under `rules` and parsed by `schema`. */
export async function readJsonBody<T>(
  request: Request,
  schema: z.ZodType<T>,
  rules: Omit<BodyRules, "type" | "typeHint"> & { typeHint?: string; /** What the body should have been, after "The body is not JSON: " */ notJson?: string },
): Promise<T> {
  const text = await readTextBody(request, { type: "application/json", typeHint: rules.typeHint ?? "Send Content-Type: application/json.", ...rules });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(rules.invalid, rules.notJson ? `The body is not JSON: ${rules.notJson}` : "The body is not JSON.");
  }
  return parseWith(schema, value, rules.invalid);
}

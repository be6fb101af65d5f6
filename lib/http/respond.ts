import "server-only";
import { ApiError, statusOf, type ErrorCode } from "@/lib/contract/errors";
import { serverLog, stackOf } from "./server-log";

// Every answer of the API and the playground goes through these two functions, so headers and
// the error envelope are the same everywhere.

/** The media type of every JSON answer, relayed ones included. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

const baseHeaders = {
  "content-type": JSON_CONTENT_TYPE,
  "cache-control": "private, no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/**
 * Remembered answers (CRM pages, CX views) come back as the same object each time; their JSON
 * text is kept beside them, so a large answer is serialised once, not on every read.
 */
const serialised = new WeakMap<object, string>();

/** An answer's JSON text, as `json` writes it: for a relay that hands the text on without a Response. */
export function stringify(body: unknown): string {
  if (typeof body !== "object" || body === null) return JSON.stringify(body);
  let text = serialised.get(body);
  if (text === undefined) {
    text = JSON.stringify(body);
    serialised.set(body, text);
  }
  return text;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(stringify(body), { status, headers: { ...baseHeaders, ...headers } });
}

/** An answer whose JSON text the caller has already built (e.g. a page assembled within a byte budget). */
export function jsonText(text: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...baseHeaders, ...headers } });
}

export function errorResponse(code: ErrorCode, hint?: string, headers: Record<string, string> = {}): Response {
  return json(hint ? { error: code, hint } : { error: code }, statusOf(code), headers);
}

/** A redirect that is never cached, never leaks a referrer, and may set cookies. */
export function redirectResponse(status: 302 | 303, location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status, headers });
}

/** Anything thrown as the envelope's status and body; an unexpected failure is logged and discloses nothing. */
export function envelopeOf(err: unknown, log: (e: unknown) => void = defaultLog): { status: number; body: { error: ErrorCode; hint?: string } } {
  if (!(err instanceof ApiError)) {
    log(err);
    return { status: statusOf("internal_error"), body: { error: "internal_error", hint: INTERNAL_HINT } };
  }
  return { status: statusOf(err.code), body: err.hint ? { error: err.code, hint: err.hint } : { error: err.code } };
}

const INTERNAL_HINT = "Something went wrong on our side; try again shortly.";

/** Maps anything thrown to the envelope; an unexpected failure discloses nothing. */
export function fromThrown(err: unknown, log: (e: unknown) => void = defaultLog): Response {
  if (err instanceof ApiError) return errorResponse(err.code, err.hint, err.headers);
  log(err);
  return errorResponse("internal_error", INTERNAL_HINT);
}

function defaultLog(e: unknown): void {
  serverLog("error", "unexpected failure", { component: "api", stack: stackOf(e) });
}

import "server-only";
import { OAuthError } from "@/lib/auth/oauth";
import { readBodyCapped } from "@/lib/http/body";
import { json } from "@/lib/http/respond";

// OAuth's side of the wire: its error format, the CORS its browser-based clients need, and
// bodies and parameters read as RFC 6749 asks.

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };
// Metadata and the token endpoint are read by browser-based clients from other origins; neither
// uses cookies, so any origin may read them.
export const CORS = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type, authorization, mcp-protocol-version" };

function oauthError(err: OAuthError): Response {
  return json({ error: err.error, error_description: err.description, hint: err.description }, err.status, { ...NO_STORE, ...CORS, ...err.headers });
}

export function answerOAuth(run: () => Promise<Response>): Promise<Response> {
  return run().catch((err: unknown) => {
    if (err instanceof OAuthError) return oauthError(err);
    throw err;
  });
}

/** A CORS preflight's answer, naming the one method the route takes. */
export const preflight = (method: "GET" | "POST") => () =>
  new Response(null, { status: 204, headers: { ...CORS, "access-control-allow-methods": `${method}, OPTIONS`, "access-control-max-age": "600" } });

export async function readBody(request: Request, type: string, max: number): Promise<string> {
  const essence = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (essence !== type) throw new OAuthError("invalid_request", `send the body as ${type}`);
  const bytes = await readBodyCapped(request, max);
  if (!bytes) throw new OAuthError("invalid_request", `the body may be at most ${max} bytes`, 413);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new OAuthError("invalid_request", "the body is not UTF-8");
  }
}

const PARAM_MAX = 1024;

/** Parameters, each at most once (RFC 6749 §3.1) and bounded; absent ones are null. */
export function paramsOf<N extends string>(search: URLSearchParams, names: readonly N[]): Record<N, string | null> {
  const out = {} as Record<N, string | null>;
  for (const name of names) {
    const all = search.getAll(name);
    if (all.length > 1) throw new OAuthError("invalid_request", `${name} was sent more than once`);
    const value = all[0] ?? null;
    if (value !== null && (value.length > PARAM_MAX || /[\u0000-\u001f\u007f]/.test(value))) {
      throw new OAuthError("invalid_request", `${name}: at most ${PARAM_MAX} characters, no control characters`);
    }
    out[name] = value === "" ? null : value;
  }
  return out;
}

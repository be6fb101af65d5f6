import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import type { Endpoint, EndpointDef, EndpointId } from "@/lib/contract/endpoints";
import { matchPath } from "@/lib/contract/match";
import { parseEndpointQuery } from "@/lib/contract/query";
import type { SessionUser } from "@/lib/auth/session";
import type { Db } from "@/lib/db";
import { errorResponse, fromThrown, json } from "./respond";

// The one wrapper every API request passes through:
// method → route → session (401) → path values (404) → permission (403) → query (400) → handler.

export interface HandlerContext<E extends Endpoint = Endpoint> {
  request: Request;
  db: Db;
  user: SessionUser;
  params: Record<string, string>;
  query: z.output<E["query"]>;
}

export type Handler<E extends Endpoint> = (ctx: HandlerContext<E>) => Promise<z.input<E["response"]>>;
export type HandlerMap = { [Id in EndpointId]: Handler<Extract<Endpoint, { id: Id }>> };

export interface ApiDeps {
  db: () => Promise<Db>;
  userFor: (db: Db, request: Request) => Promise<SessionUser | null>;
  handlers: HandlerMap;
}

export async function handleApi(request: Request, path: string, deps: ApiDeps): Promise<Response> {
  const started = performance.now();
  const response = await route(request, path, deps);
  // Server time, for browser devtools and the benchmarks.
  response.headers.set("server-timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
  return response;
}

async function route(request: Request, path: string, deps: ApiDeps): Promise<Response> {
  try {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return errorResponse("method_not_allowed", "Every API endpoint is GET.", { allow: "GET" });
    }
    const match = matchPath(path);
    if (!match) return errorResponse("not_found", "See /docs for the list of endpoints.");
    const endpoint: EndpointDef = match.endpoint;

    const db = await deps.db();
    const user = await deps.userFor(db, request);
    if (!user) return errorResponse("unauthorized", "Sign in at /signin, then retry.");

    for (const [name, rule] of Object.entries(endpoint.params ?? {})) {
      const value = match.params[name] ?? "";
      if (rule.values && !rule.values.includes(value)) {
        throw new ApiError(rule.unknown ?? "not_found", `${name} must be one of: ${rule.values.join(", ")}`);
      }
    }

    if (endpoint.permission) {
      const needed = endpoint.permission.replace(/\{(\w+)\}/g, (_, p: string) => match.params[p] ?? "");
      if (!user.permissions.includes(needed)) throw new ApiError("forbidden", `This needs the ${needed} permission.`);
    }

    const query = parseEndpointQuery(new URL(request.url).searchParams, endpoint);
    const handler = deps.handlers[endpoint.id as EndpointId] as unknown as (ctx: HandlerContext) => Promise<unknown>;
    const body = await handler({ request, db, user, params: match.params, query: query as HandlerContext["query"] });
    return json(body, 200, { vary: "Cookie" });
  } catch (err) {
    return fromThrown(err);
  }
}

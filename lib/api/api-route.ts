import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import type { Endpoint, EndpointId } from "@/lib/contract/endpoints";
import { checkPathValues, matchPath, permissionFor } from "@/lib/contract/match";
import { parseEndpointQuery } from "@/lib/contract/query";
import type { SessionUser } from "@/lib/auth/session";
import type { ReadCache } from "@/lib/cache/read-cache";
import type { Config } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Credentials } from "@/lib/connectors/credentials";
import type { UpstreamOptions } from "@/lib/connectors/http";
import type { Db } from "@/lib/db";
import { defineRoute, restPath, type RouteModule } from "@/lib/http/edge";
import { envelopeOf, errorResponse, json } from "@/lib/http/respond";

// /api/*: the edge checks the method; then route → session (401) → path values (404) →
// permission (403) → query (400) → handler. A reader already known (readApiAs) takes the same
// steps but the session. The demo API answers in the same order with the
// same shared steps (lib/contract/match.ts, lib/contract/query.ts).

/** What handlers are handed besides the request: the app's key and caches, never reached for globally. */
export interface HandlerServices {
  /** The deployment's configuration, as the composition root read it. */
  config: Config;
  sealer: Sealer;
  /** CRM and CX answers by data version (lib/crm/memo.ts). */
  answers: ReadCache;
  /** Direct vendor reads per person (lib/connectors/vendor-cache.ts). */
  vendorReads: ReadCache;
  /** Connector credentials, renewed as they near expiry (lib/connectors/credentials.ts). */
  credentials: Credentials;
  /** How to reach a CRM portal (lib/crm/upstream.ts). */
  crmUpstream: (instance: "customers" | "users") => UpstreamOptions | null;
}

export interface HandlerContext<E extends Endpoint = Endpoint> extends HandlerServices {
  db: Db;
  user: SessionUser;
  params: Record<string, string>;
  query: z.output<E["query"]>;
}

export type Handler<E extends Endpoint> = (ctx: HandlerContext<E>) => Promise<z.input<E["response"]>>;
export type HandlerMap = { [Id in EndpointId]: Handler<Extract<Endpoint, { id: Id }>> };

interface ApiDeps {
  db: () => Promise<Db>;
  services: () => HandlerServices;
  userFor: (db: Db, request: Request) => Promise<SessionUser | null>;
  handlers: HandlerMap;
}

/** The /api route module: every endpoint of the registry behind the edge. */
export function apiRoute(deps: ApiDeps): RouteModule {
  return defineRoute({
    params: (raw) => restPath(raw),
    refuse: "Every API endpoint is GET.",
    methods: (on) => ({ GET: on({ handle: ({ request, params }) => answer(request, params, deps) }) }),
  });
}

const modules = new WeakMap<ApiDeps, RouteModule>();

/** One request through the /api route module; `path` is relative to /api, segments percent-encoded. */
export function handleApi(request: Request, path: string, deps: ApiDeps): Promise<Response> {
  let route = modules.get(deps);
  if (!route) modules.set(deps, (route = apiRoute(deps)));
  const method = request.method as keyof RouteModule;
  let segments: string[];
  try {
    segments = path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return Promise.resolve(errorResponse("invalid_path", "A path segment is not valid percent-encoded UTF-8."));
  }
  return (route[method] ?? route.OPTIONS)(request, { params: { path: segments } });
}

async function answer(request: Request, path: string, deps: ApiDeps): Promise<Response> {
  const match = matchPath(path);
  if (!match) return errorResponse("not_found", NO_ENDPOINT);
  const db = await deps.db();
  const user = await deps.userFor(db, request);
  if (!user) return errorResponse("unauthorized", "Sign in at /signin, then retry.");
  return json(await answerAs(match, db, user, new URL(request.url).searchParams, deps), 200, { vary: "Cookie" });
}

const NO_ENDPOINT = "See /docs for the list of endpoints.";

/** The steps after the session: path values (404) → permission (403) → query (400) → handler. */
async function answerAs(match: NonNullable<ReturnType<typeof matchPath>>, db: Db, user: SessionUser, search: URLSearchParams, deps: Pick<ApiDeps, "handlers" | "services">): Promise<unknown> {
  checkPathValues(match);
  const needed = permissionFor(match);
  if (needed && !user.permissions.includes(needed)) throw new ApiError("forbidden", `This needs the ${needed} permission.`);
  const query = parseEndpointQuery(search, match.endpoint);
  const handler = deps.handlers[match.endpoint.id as EndpointId] as unknown as (ctx: HandlerContext) => Promise<unknown>;
  return handler({ ...deps.services(), db, user, params: match.params, query: query as HandlerContext["query"] });
}

/** An /api answer as a value: its status, and its body (the error envelope, for a refusal). */
export interface ApiRead {
  status: number;
  body: unknown;
}

/**
 * One GET of an /api endpoint as `user`, who is already known (an access token's person, a
 * drawing's viewer): the same steps, permissions and answers as the route's, without a request.
 * `path` is relative to /api, segments percent-encoded, as the route's path values are.
 */
export async function readApiAs(deps: Omit<ApiDeps, "userFor">, user: SessionUser, path: string, search: URLSearchParams): Promise<ApiRead> {
  try {
    let segments: string[];
    try {
      segments = path.split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      throw new ApiError("invalid_path", "A path segment is not valid percent-encoded UTF-8.");
    }
    const match = matchPath(`/${segments.map(encodeURIComponent).join("/")}`);
    if (!match) throw new ApiError("not_found", NO_ENDPOINT);
    return { status: 200, body: await answerAs(match, await deps.db(), user, search, deps) };
  } catch (err) {
    return envelopeOf(err);
  }
}

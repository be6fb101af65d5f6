import "server-only";
import { siteOperationById, type SiteOperationId } from "@/lib/contract/operations";
import type { BodyWriter } from "@/lib/http/after-headers";
import { defineRoute, oneParam, type BoundMethod, type On, type RawParams, type RouteModule, type Verb } from "@/lib/http/edge";
import { jsonText } from "@/lib/http/respond";
import { releasingBody } from "@/lib/limits/buckets";
import type { HeldJson } from "../held";
import type { Playground } from "../service";
import type { DemoReads, PlaygroundStages } from "../stages";

// One playground operation: its declaration's id (lib/contract/operations/ holds its method,
// path, summary and MCP tool, which the reference and the MCP server read too) and its handler,
// the stages it runs (stages.ts) and then the playground's operation on what they read
// (service.ts). The route modules are derived from these: the operations naming one route key
// are that route file's methods, each at its declaration's method.

/** What an operation's handler reaches: the playground and what the app's edge gives it. */
export interface OperationContext {
  playground: () => Promise<Playground>;
  stages: () => Promise<PlaygroundStages>;
  /** The demo API's allowance; the demo API needs no storage, so it does not wait for the playground (or the database) to start. */
  demoReads: DemoReads;
  /**
   * The server's edge (lib/ops/requests.ts): an accepted event stream is written straight to its
   * Node response, and the framework's request ends with the headers. Without it (the tests'
   * adapters), or when it declines, the stream is the Response's body.
   */
  writeBodyAfterHeaders?: (request: Request, status: number, writer: BodyWriter) => boolean;
}

/** What a route file states once, on one of the operations it holds. */
interface Mount<P> {
  /** The hint of the 405 for any method the route does not take. */
  refuse: string;
  params?: (raw: RawParams) => P;
}

interface PlaygroundOperation<R extends string = string> {
  readonly op: SiteOperationId;
  /** The route module it is one method of. */
  readonly route: R;
  readonly mount?: Mount<unknown>;
  readonly method: (on: On<unknown>, ctx: OperationContext) => BoundMethod<unknown>;
}

export function playgroundOperation<R extends string, P = RawParams>(o: {
  op: SiteOperationId;
  route: R;
  mount?: Mount<P>;
  method: (on: On<P>, ctx: OperationContext) => BoundMethod<P>;
}): PlaygroundOperation<R> {
  return o as unknown as PlaygroundOperation<R>;
}

export const tokenParam = (raw: RawParams) => oneParam(raw, "token");

/** A held answer as the Response's body: the reader's slot is given back with its last byte, or when it goes away. */
export const heldAnswer = (held: HeldJson) => jsonText(releasingBody(held.bytes, held.release));

/** The route modules of `operations`, one per route key, each method at its operation's declared method. */
export function routesOf<R extends string>(operations: readonly PlaygroundOperation<R>[], ctx: OperationContext, log?: (line: string) => void): Record<R, RouteModule> {
  const byRoute = new Map<R, PlaygroundOperation<R>[]>();
  for (const o of operations) byRoute.set(o.route, [...(byRoute.get(o.route) ?? []), o]);
  const routes = {} as Record<R, RouteModule>;
  for (const [route, ops] of byRoute) {
    const mounts = ops.flatMap((o) => (o.mount ? [o.mount] : []));
    const mount = mounts[0];
    if (mounts.length !== 1 || !mount) throw new Error(`route ${route}: exactly one of its operations states its mount`);
    routes[route] = defineRoute<unknown>({
      params: mount.params,
      refuse: mount.refuse,
      log,
      methods: (on) => Object.fromEntries(ops.map((o) => [siteOperationById(o.op).method as Verb, o.method(on, ctx)])),
    });
  }
  return routes;
}

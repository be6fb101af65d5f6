import "server-only";
import { config } from "@/lib/config";
import { userForRequest } from "@/lib/auth/session";
import { errorResponse } from "@/lib/http/respond";
import { appDb, appSealer } from "@/lib/runtime";
import { forgetReads } from "@/lib/connectors/vendor-cache";
import { disconnect, finishConnect, optIn, startConnect, type ConnectDeps } from "./connect";
import { connectorFor } from "./registry";
import { mintForConnect } from "./stand-ins";

// /connections/<slug>/<action>: the connect, callback, disconnect and opt-in endpoints behind
// the connections page, dispatched here so the route file stays one line.

async function deps(request: Request, slug: string): Promise<ConnectDeps> {
  const db = await appDb();
  return {
    db,
    sealer: appSealer(),
    config: config(),
    user: await userForRequest(db, request),
    connector: connectorFor(slug),
    invalidate: forgetReads,
    mintStandIn: mintForConnect,
  };
}

export async function connectionAction(request: Request, slug: string, action: string): Promise<Response> {
  const d = await deps(request, slug);
  if (request.method === "GET") {
    return action === "callback" ? finishConnect(request, d) : errorResponse("not_found");
  }
  switch (action) {
    case "connect":
      return startConnect(request, d, "user");
    case "disconnect":
      return disconnect(request, d, "user");
    case "donor/connect":
      return startConnect(request, d, "donor");
    case "donor/disconnect":
      return disconnect(request, d, "donor");
    case "opt-in":
      return slug === "calls" ? optIn(request, d) : errorResponse("not_found");
    default:
      return errorResponse("not_found");
  }
}

import "server-only";
import type { ReadCache } from "@/lib/cache/read-cache";
import type { Config } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { userForRequest } from "@/lib/auth/session";
import { errorResponse } from "@/lib/http/respond";
import { forgetReads } from "@/lib/connectors/vendor-cache";
import { disconnect, finishConnect, optIn, startConnect, type ConnectDeps } from "./connect";
import { connectorFor } from "./registry";
import type { StandIns } from "./stand-ins";

// /connections/<slug>/<action>: the connect, callback, disconnect and opt-in endpoints behind
// the connections page, dispatched here so the route file stays one line.

/** What the connection endpoints are handed by the composition root. */
interface ConnectionParts {
  db: () => Promise<Db>;
  sealer: Sealer;
  config: Config;
  vendorReads: ReadCache;
  standIns: Pick<StandIns, "mintForConnect">;
}

async function deps(request: Request, slug: string, parts: ConnectionParts): Promise<ConnectDeps> {
  const db = await parts.db();
  return {
    db,
    sealer: parts.sealer,
    config: parts.config,
    user: await userForRequest(db, request),
    connector: connectorFor(slug),
    invalidate: (userId, connector) => forgetReads(parts.vendorReads, userId, connector),
    mintStandIn: (connector, email) => parts.standIns.mintForConnect(connector, email),
  };
}

export async function connectionAction(request: Request, slug: string, action: string, parts: ConnectionParts): Promise<Response> {
  const d = await deps(request, slug, parts);
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

import "server-only";
import type { Config, ConnectorSlug } from "@/lib/config";
import { ApiError, type ErrorCode } from "@/lib/contract/errors";
import type { Sealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import type { UpstreamOptions } from "./http";
import { donorToken, hasCallsOptIn, userToken } from "./store";
import type { ConnectorDef } from "./types";

// Who may read an outside system, and with which credential. The answer is upstream options a
// vendor client can use, or the API error the viewer should see.

const notConfigured: Record<ConnectorSlug, ErrorCode> = {
  tracker: "tracker_not_configured",
  coderepo: "coderepo_not_configured",
  calls: "calls_not_configured",
  support: "support_not_configured",
};
const notConnected: Record<Exclude<ConnectorSlug, "calls">, ErrorCode> = {
  tracker: "tracker_not_connected",
  coderepo: "coderepo_not_connected",
  support: "support_not_connected",
};

export interface AccessDeps {
  db: Db;
  sealer: Sealer;
  /** Where each connector's product is, and how long to wait for it. */
  config: Pick<Config, "upstreams" | "connectorTimeoutMs">;
}

function upstreamBase(config: AccessDeps["config"], def: ConnectorDef): UpstreamOptions {
  const up = config.upstreams[def.slug];
  if (up.mode === "off") throw new ApiError(notConfigured[def.slug], `No ${def.product} connection is configured in this deployment.`);
  return { baseUrl: up.apiUrl, timeoutMs: config.connectorTimeoutMs };
}

/** Upstream options that read as the viewer (or, for calls, through the shared credential). */
export async function upstreamFor(deps: AccessDeps, def: ConnectorDef, userId: number): Promise<UpstreamOptions> {
  const base = upstreamBase(deps.config, def);
  if (def.credential === "donor") {
    if (!(await hasCallsOptIn(deps.db, userId))) throw new ApiError("calls_not_opted_in", "Opt in to call recordings at /connections.");
    const donor = await donorToken(deps.db, deps.sealer, def.slug);
    if (!donor) throw new ApiError("calls_donor_not_connected", "An admin connects the shared call-recording credential at /connections.");
    return { ...base, authorization: def.authorization(donor.accessToken) };
  }
  const token = await userToken(deps.db, deps.sealer, userId, def.slug);
  if (!token) throw new ApiError(notConnected[def.slug as Exclude<ConnectorSlug, "calls">], `Connect ${def.product} at /connections.`);
  return { ...base, authorization: def.authorization(token.accessToken) };
}

import "server-only";
import type { Config } from "@/lib/config";
import { standInPortalToken, type PortalUpstream } from "@/lib/connectors/crmportal";
import type { StandIns } from "@/lib/connectors/stand-ins";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";

export type CrmUpstream = (instance: CrmInstance) => PortalUpstream | null;

/**
 * How to reach one CRM portal: with the deployment's private-app token, or the stand-in's
 * portal token in the embedded default. Null when that portal is not configured. Searches are
 * paced to HubSpot's documented limit either way: the stand-in enforces the same one.
 */
export function crmUpstreamFor(config: Config, standIns: Pick<StandIns, "crmportal">): CrmUpstream {
  return (instance) => {
    const c = config.crmportal;
    if (c.mode === "off") return null;
    const token = c.mode === "vendor" ? c.tokens[instance] : standInPortalToken(standIns.crmportal(), instance);
    if (!token) return null;
    return { baseUrl: c.apiUrl, authorization: `Bearer ${token}`, timeoutMs: config.connectorTimeoutMs };
  };
}

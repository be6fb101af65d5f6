import { config, connectorSlugs, type ConnectorSlug } from "@/lib/config";
import { generateTenant } from "@/demo/tenant";
import { appSealer } from "@/lib/runtime";
import { errorResponse } from "@/lib/http/respond";
import { createCrmportalStandIn } from "./crmportal";
import { connectors } from "./registry";
import type { StandIn } from "./types";

// The stand-ins this app serves under /stand-ins/<slug> in the embedded default: the same
// vendor clients that talk to the real products talk to these over loopback HTTP. The tenant is
// generated for today, so "the trailing 30 days" always has data.

interface Mounted {
  day: string;
  byslug: Record<ConnectorSlug, StandIn>;
  crmportal: StandIn;
}

const holder = globalThis as typeof globalThis & { __ddStandIns?: Mounted };

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function mounted(): Mounted {
  const day = today();
  if (holder.__ddStandIns?.day !== day) {
    const tenant = generateTenant({ scale: config().demo.scale, referenceDate: day });
    const sealer = appSealer();
    holder.__ddStandIns = {
      day,
      byslug: Object.fromEntries(connectorSlugs.map((s) => [s, connectors[s].createStandIn({ tenant, sealer })])) as Record<ConnectorSlug, StandIn>,
      crmportal: createCrmportalStandIn({ tenant, sealer }),
    };
  }
  return holder.__ddStandIns;
}

export function standIns(): Record<ConnectorSlug, StandIn> {
  return mounted().byslug;
}

/** The CRM portal's stand-in, which serves both portals (customers and users). */
export function crmportalStandIn(): StandIn {
  return mounted().crmportal;
}

/** /stand-ins/<slug>/<path>: only while stand-ins are on and that connector uses its stand-in. */
export async function serveStandIn(request: Request, slug: string, path: string): Promise<Response> {
  if (slug === "crmportal") {
    if (config().crmportal.mode !== "stand-in") return errorResponse("not_found", "No stand-in is served here.");
    return crmportalStandIn().handle(request, path);
  }
  const up = (config().upstreams as Record<string, { mode: string } | undefined>)[slug];
  if (!config().standIns || up?.mode !== "stand-in") return errorResponse("not_found", "No stand-in is served here.");
  return standIns()[slug as ConnectorSlug].handle(request, path);
}

import { ApiError } from "@/lib/contract/errors";
import type { HandlerMap } from "@/lib/http/api";
import { favouritesOf, homeOf } from "@/lib/auth/users";

// One named domain call per endpoint. Capabilities that are not available in this deployment
// answer their own 503 code: never an invented success.

const connectorTitles: Record<string, string> = {
  tracker: "Issue tracker",
  coderepo: "Code hosting",
  calls: "Call recording",
  support: "Customer messaging",
  crmportal: "CRM portal",
};

const notSynced = async (): Promise<never> => {
  throw new ApiError("crm_not_synced", "The CRM portal sync has not completed in this deployment; see /crm/customers/sources.");
};
const cxUnavailable = async (): Promise<never> => {
  throw new ApiError("cx_not_available", "Customer-success views need a completed CRM portal sync.");
};

export const apiHandlers: HandlerMap = {
  me: async ({ user }) => ({ email: user.email, groups: user.groups, permissions: user.permissions }),
  "me.favourites": async ({ db, user }) => ({ favourites: await favouritesOf(db, user.id) }),
  "me.home": async ({ db, user }) => ({ path: await homeOf(db, user.id) }),

  "connections.check": async ({ params }) => {
    const slug = params.slug ?? "";
    return {
      slug,
      title: connectorTitles[slug] ?? slug,
      status: "not-configured",
      ok: false,
      summary: `${connectorTitles[slug] ?? slug} is not configured in this deployment.`,
      probe: "configuration lookup (no upstream call made)",
      details: [],
      durationMs: 0,
    };
  },

  "crm.companies": notSynced,
  "crm.contacts": notSynced,
  "crm.deals": notSynced,
  "crm.summary": notSynced,
  "crm.sources": async () => ({ sources: [] }),

  "vendors.tracker.issues": async () => {
    throw new ApiError("tracker_not_configured", "No issue tracker is configured in this deployment.");
  },
  "vendors.coderepo.repos": async () => {
    throw new ApiError("coderepo_not_configured", "No code host is configured in this deployment.");
  },
  "vendors.calls.calls": callsNotConfigured,
  "vendors.calls.detailed": callsNotConfigured,
  "vendors.calls.transcript": callsNotConfigured,
  "vendors.support.conversations": async () => {
    throw new ApiError("support_not_configured", "No customer-messaging product is configured in this deployment.");
  },
  "vendors.crmportal.companies": portalNotConfigured,
  "vendors.crmportal.contacts": portalNotConfigured,
  "vendors.crmportal.deals": portalNotConfigured,

  "cx.owners": cxUnavailable,
  "cx.book": cxUnavailable,
  "cx.districts": cxUnavailable,
};

async function callsNotConfigured(): Promise<never> {
  throw new ApiError("calls_not_configured", "No call-recording product is configured in this deployment.");
}
async function portalNotConfigured(): Promise<never> {
  throw new ApiError("crmportal_not_configured", "No CRM portal is configured in this deployment.");
}

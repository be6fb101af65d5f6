import { ApiError } from "@/lib/contract/errors";
import type { HandlerMap } from "@/lib/http/api";
import { favouritesOf, homeOf } from "@/lib/auth/users";
import { checkConnection } from "@/lib/connectors/check";
import { connectorFor } from "@/lib/connectors/registry";
import { appSealer } from "@/lib/runtime";
import { vendorHandlers } from "./vendors";

// One named domain call per endpoint. Capabilities that are not available in this deployment
// answer their own 503 code: never an invented success.

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

  "connections.check": async ({ db, user, params }) => {
    const def = connectorFor(params.slug ?? "");
    if (def) return checkConnection({ db, sealer: appSealer() }, def, user.id);
    // The CRM portal's probe arrives with its sync; until then it is plainly not configured.
    return {
      slug: "crmportal",
      title: "CRM portal",
      status: "not-configured",
      ok: false,
      summary: "The CRM portal is not configured in this deployment.",
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

  "vendors.tracker.issues": (ctx) => vendorHandlers.trackerIssues(ctx, ctx.query),
  "vendors.coderepo.repos": (ctx) => vendorHandlers.coderepoRepos(ctx),
  "vendors.calls.calls": (ctx) => vendorHandlers.calls(ctx),
  "vendors.calls.detailed": (ctx) => vendorHandlers.callsDetailed(ctx),
  "vendors.calls.transcript": (ctx) => vendorHandlers.transcript(ctx, ctx.params.id ?? ""),
  "vendors.support.conversations": (ctx) => vendorHandlers.supportConversations(ctx, ctx.query.cursor),
  "vendors.crmportal.companies": portalNotConfigured,
  "vendors.crmportal.contacts": portalNotConfigured,
  "vendors.crmportal.deals": portalNotConfigured,

  "cx.owners": cxUnavailable,
  "cx.book": cxUnavailable,
  "cx.districts": cxUnavailable,
};

async function portalNotConfigured(): Promise<never> {
  throw new ApiError("crmportal_not_configured", "No CRM portal is configured in this deployment.");
}

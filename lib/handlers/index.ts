import "server-only";
import { ApiError } from "@/lib/contract/errors";
import type { HandlerMap } from "@/lib/http/api";
import { favouritesOf, homeOf } from "@/lib/auth/users";
import { checkConnection } from "@/lib/connectors/check";
import { connectorFor } from "@/lib/connectors/registry";
import { appSealer } from "@/lib/runtime";
import { cxBook, cxDistricts, cxOwners } from "@/lib/cx";
import { memoView } from "@/lib/cx/memo";
import { companiesPage, contactsPage, dealsPage, sources, summary } from "@/lib/crm/answers";
import { crmInstances, type CrmInstance } from "@/lib/connectors/crmportal/records";
import { dataVersion, memoized } from "@/lib/crm/memo";
import type { Db } from "@/lib/db";
import { crmportalCheck, vendorHandlers } from "./vendors";

// One named domain call per endpoint. Capabilities that are not available in this deployment
// answer their own 503 code (e.g. crm_not_synced before the first sync): never an invented success.

/** CRM answers change only with a completed sync: keep each until the next one. */
async function crmRead<T>(db: Db, instance: CrmInstance, key: string, compute: (instance: CrmInstance) => Promise<T>): Promise<T> {
  const version = await dataVersion(db, instance, false);
  // Before the first sync the domain function answers crm_not_synced itself.
  if (version === null) return compute(instance);
  return memoized(`crm:${key}`, version, () => compute(instance));
}

/** The registry already refused any other value (404 no_such_instance); this narrows the type. */
function instanceOf(params: Record<string, string>): CrmInstance {
  const found = crmInstances.find((i) => i === params.instance);
  if (!found) throw new ApiError("no_such_instance");
  return found;
}

export const apiHandlers: HandlerMap = {
  me: async ({ user }) => ({ email: user.email, groups: user.groups, permissions: user.permissions }),
  "me.favourites": async ({ db, user }) => ({ favourites: await favouritesOf(db, user.id) }),
  "me.home": async ({ db, user }) => ({ path: await homeOf(db, user.id) }),

  "connections.check": async ({ db, user, params }) => {
    const def = connectorFor(params.slug ?? "");
    if (def) return checkConnection({ db, sealer: appSealer() }, def, user.id);
    return crmportalCheck();
  },

  "crm.companies": ({ db, params, query }) =>
    crmRead(db, instanceOf(params), `companies:${query.limit}:${query.cursor}`, (i) => companiesPage(db, appSealer(), i, query)),
  "crm.contacts": ({ db, params, query }) =>
    crmRead(db, instanceOf(params), `contacts:${query.limit}:${query.cursor}`, (i) => contactsPage(db, appSealer(), i, query)),
  "crm.deals": ({ db, params, query }) =>
    crmRead(db, instanceOf(params), `deals:${query.limit}:${query.cursor}`, (i) => dealsPage(db, appSealer(), i, query)),
  "crm.summary": ({ db, params }) => crmRead(db, instanceOf(params), "summary", (i) => summary(db, i)),
  "crm.sources": ({ db, params }) => sources(db, instanceOf(params)),

  "vendors.tracker.issues": (ctx) => vendorHandlers.trackerIssues(ctx, ctx.query),
  "vendors.coderepo.repos": (ctx) => vendorHandlers.coderepoRepos(ctx),
  "vendors.calls.calls": (ctx) => vendorHandlers.calls(ctx),
  "vendors.calls.detailed": (ctx) => vendorHandlers.callsDetailed(ctx),
  "vendors.calls.transcript": (ctx) => vendorHandlers.transcript(ctx, ctx.params.id ?? ""),
  "vendors.support.conversations": (ctx) => vendorHandlers.supportConversations(ctx, ctx.query.cursor),
  "vendors.crmportal.companies": () => vendorHandlers.portalCompanies(),
  "vendors.crmportal.contacts": () => vendorHandlers.portalContacts(),
  "vendors.crmportal.deals": () => vendorHandlers.portalDeals(),

  "cx.owners": ({ db, query }) => cxOwners(db, query),
  "cx.book": ({ db, query }) => {
    const now = Date.now();
    return memoView(db, `book:${JSON.stringify(query)}`, now, () => cxBook(db, query, now));
  },
  "cx.districts": ({ db, query }) => {
    const now = Date.now();
    return memoView(db, `districts:${JSON.stringify(query)}`, now, () => cxDistricts(db, query, now));
  },
};

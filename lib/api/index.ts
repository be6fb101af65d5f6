import "server-only";
import { ApiError } from "@/lib/contract/errors";
import type { HandlerMap } from "./api-route";
import { favouritesOf, homeOf } from "@/lib/auth/users";
import { checkConnection } from "@/lib/connectors/check";
import { connectorFor } from "@/lib/connectors/registry";
import { cxBook, cxDistricts, cxOwners } from "@/lib/cx";
import { memoView } from "@/lib/cx/memo";
import { companiesPage, contactsPage, dealsPage, sources, summary } from "@/lib/crm/answers";
import { crmInstances, type CrmInstance } from "@/lib/connectors/crmportal/records";
import { dataVersion, memoized } from "@/lib/crm/memo";
import type { ReadCache } from "@/lib/cache/read-cache";
import type { Db } from "@/lib/db";
import { crmportalCheck, vendorHandlers } from "./vendors";

// One named domain call per endpoint. Capabilities that are not available in this deployment
// answer their own 503 code (e.g. crm_not_synced before the first sync): never an invented success.

/** CRM answers change only with a completed sync: keep each until the next one. */
async function crmRead<T>(
  { db, answers }: { db: Db; answers: ReadCache },
  instance: CrmInstance,
  key: string,
  compute: (instance: CrmInstance) => Promise<T>,
): Promise<T> {
  const version = await dataVersion(db, instance, false);
  // Before the first sync the domain function answers crm_not_synced itself.
  if (version === null) return compute(instance);
  return memoized(answers, `crm:${key}`, version, () => compute(instance));
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

  "connections.check": async (ctx) => {
    const def = connectorFor(ctx.params.slug ?? "");
    if (def) return checkConnection({ db: ctx.db, credentials: ctx.credentials, config: ctx.config }, def, ctx.user.id);
    return crmportalCheck(ctx);
  },

  "crm.companies": (ctx) =>
    crmRead(ctx, instanceOf(ctx.params), `companies:${ctx.query.limit}:${ctx.query.cursor}`, (i) => companiesPage(ctx.db, ctx.sealer, i, ctx.query)),
  "crm.contacts": (ctx) =>
    crmRead(ctx, instanceOf(ctx.params), `contacts:${ctx.query.limit}:${ctx.query.cursor}`, (i) => contactsPage(ctx.db, ctx.sealer, i, ctx.query)),
  "crm.deals": (ctx) =>
    crmRead(ctx, instanceOf(ctx.params), `deals:${ctx.query.limit}:${ctx.query.cursor}`, (i) => dealsPage(ctx.db, ctx.sealer, i, ctx.query)),
  "crm.summary": (ctx) => crmRead(ctx, instanceOf(ctx.params), "summary", (i) => summary(ctx.db, i)),
  "crm.sources": ({ db, params }) => sources(db, instanceOf(params)),

  "vendors.tracker.issues": (ctx) => vendorHandlers.trackerIssues(ctx, ctx.query),
  "vendors.tracker.projects": (ctx) => vendorHandlers.trackerProjects(ctx),
  "vendors.coderepo.repos": (ctx) => vendorHandlers.coderepoRepos(ctx),
  "vendors.calls.calls": (ctx) => vendorHandlers.calls(ctx),
  "vendors.calls.detailed": (ctx) => vendorHandlers.callsDetailed(ctx),
  "vendors.calls.transcript": (ctx) => vendorHandlers.transcript(ctx, ctx.params.id ?? ""),
  "vendors.support.conversations": (ctx) => vendorHandlers.supportConversations(ctx, ctx.query.cursor),
  "vendors.support.conversation": (ctx) => vendorHandlers.supportConversation(ctx, ctx.params.id ?? ""),
  "vendors.crmportal.companies": (ctx) => vendorHandlers.portalCompanies(ctx),
  "vendors.crmportal.contacts": (ctx) => vendorHandlers.portalContacts(ctx),
  "vendors.crmportal.deals": (ctx) => vendorHandlers.portalDeals(ctx),

  "cx.owners": ({ db, query }) => cxOwners(db, query),
  "cx.book": ({ db, answers, query }) => {
    const now = Date.now();
    return memoView(answers, db, `book:${JSON.stringify(query)}`, now, () => cxBook(db, query, now));
  },
  "cx.districts": ({ db, answers, query }) => {
    const now = Date.now();
    return memoView(answers, db, `districts:${JSON.stringify(query)}`, now, () => cxDistricts(db, query, now));
  },
};

import "server-only";
import type { ConnectorSlug } from "@/lib/config";
import { ApiError } from "@/lib/contract/errors";
import { toApiError } from "@/lib/connectors/errors";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { connectors } from "@/lib/connectors/registry";
import { listCalls, getTranscript } from "@/lib/connectors/calls";
import { listRepos } from "@/lib/connectors/coderepo";
import { getConversation, listConversationsPage } from "@/lib/connectors/support";
import { listIssues, listProjects } from "@/lib/connectors/tracker";
import { crmportalProbe, crmportalProbeDescription, crmportalProduct, listPortalCompanies, listPortalContacts, listPortalDeals } from "@/lib/connectors/crmportal";
import { runCheck } from "@/lib/connectors/check";
import type { ConnectionCheck } from "@/lib/contract/resources";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor";
import type { HandlerContext } from "@/lib/api/api-route";

// Direct reads of outside systems, as the viewer. Each read goes through a short per-user cache
// (fresh for CONNECTOR_CACHE_FRESH_MS, then served stale while it refreshes), keyed by user,
// connector and query, so one person's answer never reaches another.

async function read<T>(ctx: HandlerContext, slug: ConnectorSlug, key: string, load: (up: UpstreamOptions) => Promise<T>): Promise<T> {
  try {
    // Who may read is settled before the cache, so a disconnected person is never served from it.
    // Renewing a credential may ask the vendor, so its failures are the upstream's too.
    const access = await ctx.credentials.open(ctx.db, connectors[slug], ctx.user.id);
    // Calls read through one shared credential, but the opt-in check above is per person, so the
    // cache key still carries the user.
    return await ctx.vendorReads.get(`${ctx.user.id}:${slug}:${key}`, () => access.run(load));
  } catch (err) {
    throw toApiError(slug, err);
  }
}

/**
 * The CRM portal is read with the organisation's credential and every signed-in person may read
 * the customers portal, so its direct reads share one cache entry per list.
 */
async function portalRead<T>(ctx: HandlerContext, key: string, load: (up: UpstreamOptions) => Promise<T>): Promise<T> {
  const up = ctx.crmUpstream("customers");
  if (!up) throw new ApiError("crmportal_not_configured", "No CRM portal is configured in this deployment.");
  try {
    return await ctx.vendorReads.get(`org:crmportal:${key}`, () => load(up));
  } catch (err) {
    throw toApiError("crmportal", err);
  }
}

/** The CRM portal's connection check: the organisation's credential, probed live. */
export function crmportalCheck(ctx: HandlerContext): Promise<ConnectionCheck> {
  return runCheck(
    { slug: "crmportal", title: "CRM portal", product: crmportalProduct, probeDescription: crmportalProbeDescription },
    async () => {
      const upstream = ctx.crmUpstream("customers");
      return upstream ? { upstream } : { status: "not-configured", summary: `${crmportalProduct} is not configured in this deployment.` };
    },
    crmportalProbe,
    `${crmportalProduct} refused this deployment's token.`,
  );
}

export const vendorHandlers = {
  portalCompanies: async (ctx: HandlerContext) => ({ companies: await portalRead(ctx, "companies", listPortalCompanies) }),
  portalContacts: async (ctx: HandlerContext) => ({ contacts: await portalRead(ctx, "contacts", listPortalContacts) }),
  portalDeals: async (ctx: HandlerContext) => ({ deals: await portalRead(ctx, "deals", listPortalDeals) }),

  trackerIssues: (ctx: HandlerContext, q: { project?: string }) =>
    read(ctx, "tracker", `issues?project=${q.project ?? ""}`, (up) => listIssues(up, q)),

  trackerProjects: (ctx: HandlerContext) => read(ctx, "tracker", "projects", (up) => listProjects(up)),

  coderepoRepos: (ctx: HandlerContext) => read(ctx, "coderepo", "repos", (up) => listRepos(up)),

  calls: (ctx: HandlerContext) => read(ctx, "calls", "calls", (up) => listCalls(up, { detailed: false })),

  callsDetailed: (ctx: HandlerContext) => read(ctx, "calls", "calls/detailed", (up) => listCalls(up, { detailed: true })),

  transcript: async (ctx: HandlerContext, callId: string) => {
    const t = await read(ctx, "calls", `transcript/${callId}`, (up) => getTranscript(up, callId));
    if (!t) throw new ApiError("not_found", "No call with that id in the trailing 30 days; ids come from /vendors/calls/calls.");
    return t;
  },

  supportConversation: async (ctx: HandlerContext, id: string) => {
    const found = await read(ctx, "support", `conversation/${id}`, (up) => getConversation(up, id));
    if (!found) throw new ApiError("not_found", "No conversation with that id; ids come from /vendors/support/conversations.");
    return found;
  },

  supportConversations: async (ctx: HandlerContext, cursor: string | undefined) => {
    const { sealer } = ctx;
    const vendorCursor = cursor
      ? decodeCursor(sealer, "support", cursor, (v): v is { v: string } => typeof v === "object" && v !== null && typeof (v as { v?: unknown }).v === "string").v
      : undefined;
    const page = await read(ctx, "support", `conversations?after=${vendorCursor ?? ""}`, (up) => listConversationsPage(up, { vendorCursor }));
    return {
      conversations: page.conversations,
      nextCursor: page.nextVendorCursor ? encodeCursor(sealer, "support", { v: page.nextVendorCursor }) : null,
    };
  },
};

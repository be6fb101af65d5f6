import "server-only";
import type { SupportConversation, SupportConversationDetail } from "@/lib/contract/resources";
import type { UpstreamOptions } from "@/lib/connectors/http";
import type { ConnectorDef } from "@/lib/connectors/types";
import { DEFAULT_PER_PAGE, fetchAllConversations, fetchConversation, fetchConversationPage, getMe } from "./client";
import { nextVendorCursor, probeResult, toSupportConversation, toSupportConversationDetail } from "./map";
import { createSupportStandIn } from "./stand-in";

// Customer messaging through Intercom: each person connects their own teammate account.

export const supportConnector: ConnectorDef = {
  slug: "support",
  title: "Customer messaging",
  product: "Intercom",
  credential: "user",
  scope: "read_conversations",
  tokenAuth: "body",
  authorization: (token) => `Bearer ${token}`,
  probeDescription: "Reads who you are connected as on Intercom and the name of your workspace",
  probe: async (upstream) => probeResult(await getMe(upstream)),
  createStandIn: createSupportStandIn,
};

/**
 * One page of conversations, newest update first. `vendorCursor` is Intercom's own
 * `starting_after` from the previous page; a cursor Intercom rejects (400) surfaces as an
 * UpstreamError of kind "server".
 */
export async function listConversationsPage(
  up: UpstreamOptions,
  opts: { vendorCursor?: string; perPage?: number } = {},
): Promise<{ conversations: SupportConversation[]; nextVendorCursor: string | null }> {
  const page = await fetchConversationPage(up, { startingAfter: opts.vendorCursor, perPage: opts.perPage ?? DEFAULT_PER_PAGE });
  return { conversations: page.conversations.map(toSupportConversation), nextVendorCursor: nextVendorCursor(page.pages) };
}

/** Every conversation of the workspace, paging through Intercom until its last page (bounded). */
export async function listAllConversations(up: UpstreamOptions, opts: { perPage?: number; maxPages?: number } = {}): Promise<SupportConversation[]> {
  return (await fetchAllConversations(up, opts)).map(toSupportConversation);
}

/** One conversation with what was said in it; null when the workspace has none with that id. */
export async function getConversation(up: UpstreamOptions, id: string): Promise<SupportConversationDetail | null> {
  const found = await fetchConversation(up, id);
  return found ? toSupportConversationDetail(found) : null;
}

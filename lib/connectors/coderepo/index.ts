import "server-only";
import type { Repository } from "@/lib/contract/resources";
import type { UpstreamOptions } from "@/lib/connectors/http";
import type { ConnectorDef } from "@/lib/connectors/types";
import { getAuthenticatedUser, listUserRepos, type ListReposOptions } from "./client";
import { probeResultOf, toRepositories } from "./map";
import { createCoderepoStandIn } from "./stand-in";

// Code hosting, spoken as GitHub: each person connects their own account.

export const coderepoConnector: ConnectorDef = {
  slug: "coderepo",
  title: "Code hosting",
  product: "GitHub",
  credential: "user",
  scope: "repo read:user",
  tokenAuth: "body",
  authorization: (token) => `Bearer ${token}`,
  probeDescription: "Reads who you are connected as on GitHub and what the connection lets dashboards read",
  async probe(upstream) {
    const { user, scopes } = await getAuthenticatedUser(upstream);
    return probeResultOf(user, scopes);
  },
  createStandIn: createCoderepoStandIn,
};

/**
 * The repositories the viewer can see, most recently pushed first. GitHub already sorts by
 * push, but the list is sorted again here because pages fetched at different moments can
 * disagree when someone pushes in between.
 */
export async function listRepos(up: UpstreamOptions, options: ListReposOptions = {}): Promise<{ repos: Repository[] }> {
  return { repos: toRepositories(await listUserRepos(up, options)) };
}

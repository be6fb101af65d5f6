import "server-only";
import type { TrackerIssue, TrackerProject } from "@/lib/contract/resources";
import type { UpstreamOptions } from "@/lib/connectors/http";
import type { ConnectorDef } from "@/lib/connectors/types";
import { fetchAssignedIssues, fetchProjectIssues, fetchProjects, fetchViewer, type PageOptions } from "./client";
import { findProject, noSuchProject, probeResult, projectList, toAssignedIssue, toProjectIssue } from "./map";
import { createTrackerStandIn } from "./stand-in";

// The issue tracker, spoken as Linear: each person connects their own account (OAuth), and
// every read acts as that account.

export const trackerConnector: ConnectorDef = {
  slug: "tracker",
  title: "Issue tracker",
  product: "Linear",
  credential: "user",
  scope: "read",
  tokenAuth: "body",
  authorization: (token) => `Bearer ${token}`,
  probeDescription: "Reads who you are connected as on Linear and the name of your workspace",
  probe: async (upstream) => {
    const { viewer, organization } = await fetchViewer(upstream);
    return probeResult(viewer, organization);
  },
  createStandIn: createTrackerStandIn,
};

/** The tracker's projects, by name: what `project` on the issues read takes. */
export async function listProjects(up: UpstreamOptions, opts: PageOptions = {}): Promise<{ projects: TrackerProject[] }> {
  return { projects: projectList(await fetchProjects(up, opts)) };
}

/**
 * Without `project`: the viewer's open assigned issues, with only the fields of the assigned
 * view. With `project` (an id, or a name matched ignoring case): every issue in that project,
 * with priority, assignee and project added; a project the tracker does not have is 404.
 */
export async function listIssues(up: UpstreamOptions, q: { project?: string }, opts: PageOptions = {}): Promise<{ issues: TrackerIssue[] }> {
  if (q.project === undefined) {
    return { issues: (await fetchAssignedIssues(up, opts)).map(toAssignedIssue) };
  }
  const project = findProject(await fetchProjects(up, opts), q.project);
  if (!project) throw noSuchProject(q.project);
  return { issues: (await fetchProjectIssues(up, project.id, opts)).map(toProjectIssue) };
}

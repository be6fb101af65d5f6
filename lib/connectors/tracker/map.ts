import { ApiError } from "@/lib/contract/errors";
import type { TrackerIssue, TrackerProject } from "@/lib/contract/resources";
import type { ProbeResult } from "@/lib/connectors/types";
import type { LinearIssue, LinearOrganization, LinearProject, LinearProjectIssue, LinearViewer } from "./client";

// Linear's shapes in the API's words. The assigned view carries only the issue itself; the
// project-view-only fields are added solely by toProjectIssue, so they can never leak into it.

export function toAssignedIssue(n: LinearIssue): TrackerIssue {
  return { id: n.id, identifier: n.identifier, title: n.title, url: n.url, state: n.state.name };
}

type Priority = 0 | 1 | 2 | 3 | 4;

function priorityOf(p: number): Priority | undefined {
  return p === 0 || p === 1 || p === 2 || p === 3 || p === 4 ? p : undefined;
}

export function toProjectIssue(n: LinearProjectIssue): TrackerIssue {
  const out: TrackerIssue = toAssignedIssue(n);
  const priority = priorityOf(n.priority);
  if (priority !== undefined) {
    out.priority = priority;
    out.priorityLabel = n.priorityLabel;
  }
  // Linear's displayName is the name its own UI shows next to an issue; it can be blank for
  // accounts created through an integration, where the full name is the better label.
  if (n.assignee) out.assignee = n.assignee.displayName.trim() || n.assignee.name;
  if (n.project) out.project = { id: n.project.id, name: n.project.name };
  return out;
}

/** A project by exact id, else by name ignoring case and surrounding spaces; the first match wins. */
export function findProject(projects: readonly LinearProject[], idOrName: string): LinearProject | undefined {
  const wanted = idOrName.trim();
  const byId = projects.find((p) => p.id === wanted);
  if (byId) return byId;
  const lower = wanted.toLowerCase();
  return projects.find((p) => p.name.trim().toLowerCase() === lower);
}

/** Projects as the API lists them: by name, then id. */
export function projectList(projects: readonly LinearProject[]): TrackerProject[] {
  return projects.map((p) => ({ id: p.id, name: p.name })).sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The refusal of a project the tracker does not have: an empty list would read as an empty project. */
export function noSuchProject(project: string): ApiError {
  return new ApiError("no_such_project", `The tracker has no project "${project.slice(0, 80)}"; /vendors/tracker/projects lists them (an id, or a name in any case).`);
}

export function probeResult(viewer: LinearViewer, organization: LinearOrganization): ProbeResult {
  return {
    summary: `Connected to Linear as ${viewer.name || viewer.email}`,
    details: [
      { label: "Account", value: viewer.email },
      { label: "Name", value: viewer.name },
      { label: "Workspace", value: `${organization.name} (${organization.urlKey})` },
    ],
  };
}

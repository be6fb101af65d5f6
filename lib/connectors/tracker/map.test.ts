import { describe, expect, it } from "vitest";
import { trackerIssue } from "@/lib/contract/resources";
import type { LinearIssue, LinearProjectIssue } from "./client";
import { findProject, probeResult, toAssignedIssue, toProjectIssue } from "./map";

const base: LinearIssue = {
  id: "9b2f1c1e-0000-4000-a000-000000000001",
  identifier: "ESC-330",
  title: "District cannot see last term's reports",
  url: "https://linear.app/demo/issue/ESC-330/district-cannot-see-last-terms-reports",
  state: { name: "In Progress", type: "started" },
};

const projectIssue: LinearProjectIssue = {
  ...base,
  priority: 2,
  priorityLabel: "High",
  assignee: { name: "Casey Morgan", displayName: "casey" },
  project: { id: "p-1", name: "Customer Escalations" },
};

describe("toAssignedIssue", () => {
  it("keeps the issue's own fields and the state's name, and nothing of the project view", () => {
    const out = toAssignedIssue(projectIssue);
    expect(out).toEqual({ id: base.id, identifier: "ESC-330", title: base.title, url: base.url, state: "In Progress" });
    expect(trackerIssue.parse(out)).toEqual(out);
  });
});

describe("toProjectIssue", () => {
  it("adds priority, its label, the assignee's display name and the project", () => {
    const out = toProjectIssue(projectIssue);
    expect(out).toEqual({
      id: base.id,
      identifier: "ESC-330",
      title: base.title,
      url: base.url,
      state: "In Progress",
      priority: 2,
      priorityLabel: "High",
      assignee: "casey",
      project: { id: "p-1", name: "Customer Escalations" },
    });
    expect(trackerIssue.parse(out)).toEqual(out);
  });

  it("leaves out the assignee of an unassigned issue rather than sending null", () => {
    const out = toProjectIssue({ ...projectIssue, assignee: null });
    expect("assignee" in out).toBe(false);
    expect(trackerIssue.safeParse(out).success).toBe(true);
  });

  it("falls back to the full name when the display name is blank", () => {
    expect(toProjectIssue({ ...projectIssue, assignee: { name: "Riley Chen", displayName: "  " } }).assignee).toBe("Riley Chen");
  });

  it("keeps priority 0 (none) and drops a priority outside 0–4 together with its label", () => {
    expect(toProjectIssue({ ...projectIssue, priority: 0, priorityLabel: "No priority" })).toMatchObject({ priority: 0, priorityLabel: "No priority" });
    const odd = toProjectIssue({ ...projectIssue, priority: 2.5, priorityLabel: "?" });
    expect("priority" in odd || "priorityLabel" in odd).toBe(false);
    expect(trackerIssue.safeParse(odd).success).toBe(true);
  });

  it("omits the project when Linear answers none", () => {
    expect("project" in toProjectIssue({ ...projectIssue, project: null })).toBe(false);
  });
});

describe("findProject", () => {
  const projects = [
    { id: "a1", name: "Platform" },
    { id: "b2", name: "Data & Reporting" },
    { id: "platform", name: "Roster Sync" },
  ];

  it("matches an exact id first, even when another project is named like it", () => {
    expect(findProject(projects, "platform")?.name).toBe("Roster Sync");
    expect(findProject(projects, "b2")?.name).toBe("Data & Reporting");
  });

  it("matches a name ignoring case and surrounding spaces", () => {
    expect(findProject(projects, "  data & REPORTING ")?.id).toBe("b2");
    expect(findProject(projects, "PLATFORM")?.id).toBe("a1");
  });

  it("finds nothing for an unknown id or name, or a partial name", () => {
    expect(findProject(projects, "nope")).toBeUndefined();
    expect(findProject(projects, "Data")).toBeUndefined();
    expect(findProject([], "Platform")).toBeUndefined();
  });
});

describe("probeResult", () => {
  it("names the account and lists the facts the call returned", () => {
    const r = probeResult({ id: "u1", name: "Casey Morgan", email: "csm@demo.test" }, { name: "Demo Edu", urlKey: "demo-edu" });
    expect(r.summary).toBe("Connected to Linear as Casey Morgan");
    expect(r.details).toEqual([
      { label: "Account", value: "csm@demo.test" },
      { label: "Name", value: "Casey Morgan" },
      { label: "Workspace", value: "Demo Edu (demo-edu)" },
    ]);
  });

  it("names the account by email when the name is blank", () => {
    expect(probeResult({ id: "u1", name: "", email: "x@demo.test" }, { name: "W", urlKey: "w" }).summary).toBe("Connected to Linear as x@demo.test");
  });
});

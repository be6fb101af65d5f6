import "server-only";
import { createHash } from "node:crypto";
import { demoUsers } from "@/demo/users";
import type { Tenant, TrackerIssue as TenantIssue } from "@/demo/tenant";

// The demo tenant's tracker as Linear's objects: its people as users, the prefixes of issue
// identifiers as teams, the state names as workflow states, with every reference resolved once,
// so a query walks plain records.

export const ORGANIZATION = { name: "Demo Edu", urlKey: "demo-edu" } as const;

const PRIORITY_LABELS = ["No priority", "Urgent", "High", "Medium", "Low"] as const;

// Linear's own default colours for its state types, so an answer looks like a workspace's.
const STATE_COLORS: Record<TenantIssue["stateType"], string> = {
  backlog: "#bec2c8",
  unstarted: "#e2e2e2",
  started: "#f2c94c",
  completed: "#5e6ad2",
  canceled: "#95a2b3",
};
const STATE_ORDER: readonly TenantIssue["stateType"][] = ["backlog", "unstarted", "started", "completed", "canceled"];

/** Linear's ids are UUIDs; what the tenant has none for gets one derived from a stable seed. */
export function uuidFrom(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface PersonRec {
  id: string;
  email: string;
  name: string;
  /** Linear's nickname: unique in the workspace, by default derived from the first name. */
  displayName: string;
  active: boolean;
  admin: boolean;
  createdAt: number | null;
  updatedAt: number | null;
}

export interface TeamRec {
  id: string;
  key: string;
  name: string;
}

export interface StateRec {
  id: string;
  name: string;
  type: TenantIssue["stateType"];
  position: number;
  color: string;
}

export interface ProjectRec {
  id: string;
  name: string;
  key: string;
  slugId: string;
  url: string;
  team: TeamRec | null;
  createdAt: number | null;
  updatedAt: number | null;
}

export interface IssueRec {
  id: string;
  identifier: string;
  number: number;
  title: string;
  url: string;
  priority: number;
  priorityLabel: string;
  state: StateRec;
  assignee: PersonRec | null;
  project: ProjectRec | null;
  team: TeamRec;
  createdAt: number;
  updatedAt: number;
}

export interface TrackerWorld {
  /** The tenant's clock: what a time Linear would know but the tenant does not is set to. */
  now: number;
  people: PersonRec[];
  peopleByEmail: Map<string, PersonRec>;
  teams: TeamRec[];
  states: StateRec[];
  /** By name, as Linear lists projects by default in the stand-in's order. */
  projects: ProjectRec[];
  /** Newest first. */
  issues: IssueRec[];
}

function peopleOf(tenant: Tenant): PersonRec[] {
  const raw = new Map<string, { name: string; first: string; last: string; active: boolean; admin: boolean; createdAt: number | null; updatedAt: number | null }>();
  for (const u of demoUsers) {
    const [first = u.name, ...rest] = u.name.split(" ");
    raw.set(u.email, { name: u.name, first, last: rest.join(" "), active: true, admin: u.groups.includes("admin"), createdAt: null, updatedAt: null });
  }
  for (const s of tenant.staff) {
    if (raw.has(s.email)) continue;
    raw.set(s.email, {
      name: `${s.firstName} ${s.lastName}`.trim(),
      first: s.firstName,
      last: s.lastName,
      active: s.lifecycleStage !== "offboarded",
      admin: false,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    });
  }
  const taken = new Set<string>();
  const nick = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  return [...raw].map(([email, p]) => {
    const base = nick(p.first) || nick(email.split("@")[0] ?? "") || "user";
    let displayName = base;
    if (taken.has(displayName)) displayName = `${base}${nick(p.last).slice(0, 1)}`;
    for (let n = 2; taken.has(displayName); n++) displayName = `${base}${n}`;
    taken.add(displayName);
    return { id: uuidFrom(`tracker-user:${email}`), email, name: p.name, displayName, active: p.active, admin: p.admin, createdAt: p.createdAt, updatedAt: p.updatedAt };
  });
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byNewest = (a: TenantIssue, b: TenantIssue) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function trackerWorld(tenant: Tenant): TrackerWorld {
  const people = peopleOf(tenant);
  const peopleByEmail = new Map(people.map((p) => [p.email, p]));
  const keyOf = (identifier: string) => identifier.split("-")[0] ?? identifier;

  // Each identifier prefix is a team, named after its project where it has one.
  const teamKeys = [...new Set([...tenant.tracker.projects.map((p) => p.key), ...tenant.tracker.issues.map((i) => keyOf(i.identifier))])].sort();
  const teams = teamKeys.map((key): TeamRec => ({ id: uuidFrom(`tracker-team:${key}`), key, name: tenant.tracker.projects.find((p) => p.key === key)?.name ?? key }));
  const teamByKey = new Map(teams.map((t) => [t.key, t]));

  const stateSeen = new Map<string, TenantIssue["stateType"]>();
  for (const i of tenant.tracker.issues) stateSeen.set(i.stateName, i.stateType);
  const states = [...stateSeen]
    .map(([name, type]) => ({ name, type }))
    .sort((a, b) => STATE_ORDER.indexOf(a.type) - STATE_ORDER.indexOf(b.type) || byName(a, b))
    .map((s, position): StateRec => ({ id: uuidFrom(`tracker-state:${s.name}`), name: s.name, type: s.type, position, color: STATE_COLORS[s.type] }));
  const stateByName = new Map(states.map((s) => [s.name, s]));

  const projects = tenant.tracker.projects
    .map((p): ProjectRec => {
      const own = tenant.tracker.issues.filter((i) => i.projectId === p.id);
      return {
        id: p.id,
        name: p.name,
        key: p.key,
        slugId: uuidFrom(`tracker-project-slug:${p.id}`).slice(0, 12).replace(/-/g, ""),
        url: `https://tracker.demo.test/project/${p.key.toLowerCase()}`,
        team: teamByKey.get(p.key) ?? null,
        createdAt: own.length > 0 ? Math.min(...own.map((i) => i.createdAt)) : null,
        updatedAt: own.length > 0 ? Math.max(...own.map((i) => i.updatedAt)) : null,
      };
    })
    .sort(byName);
  const projectById = new Map(projects.map((p) => [p.id, p]));

  const issues = [...tenant.tracker.issues].sort(byNewest).map((i): IssueRec => {
    const key = keyOf(i.identifier);
    const state = stateByName.get(i.stateName);
    const team = teamByKey.get(key);
    if (!state || !team) throw new Error(`tracker issue ${i.identifier} has no state or team`);
    return {
      id: i.id,
      identifier: i.identifier,
      number: Number(i.identifier.slice(key.length + 1)) || 0,
      title: i.title,
      url: i.url,
      priority: i.priority,
      priorityLabel: PRIORITY_LABELS[i.priority],
      state,
      assignee: i.assigneeEmail ? (peopleByEmail.get(i.assigneeEmail) ?? null) : null,
      project: i.projectId ? (projectById.get(i.projectId) ?? null) : null,
      team,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
    };
  });

  return { now: tenant.now, people, peopleByEmail, teams, states, projects, issues };
}

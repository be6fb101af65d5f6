import { endpoints } from "@/lib/contract/endpoints";

// Named presets over the variants. A scenario names only the paths it changes; every other
// path answers its default variant (`rich`). Keys are registry path patterns, or concrete paths
// where a preset tells path values apart (a member may read /crm/customers but not /crm/users);
// a concrete key wins over its pattern.

export interface Scenario {
  name: string;
  description: string;
  /** API path (pattern or concrete) → variant name. */
  examples: Readonly<Record<string, string>>;
}

/** Every registry path of these outside systems, so a new endpoint of one joins its presets. */
const pathsOf = (...systems: string[]) => endpoints.filter((e) => systems.some((s) => e.path.startsWith(`/vendors/${s}/`))).map((e) => e.path);
// Read with each person's own connection: not connected until they connect.
const vendorReads = pathsOf("tracker", "coderepo", "support");
const callPaths = pathsOf("calls");
const portalPaths = pathsOf("crmportal");
const crmData = ["/crm/:instance/companies", "/crm/:instance/contacts", "/crm/:instance/deals", "/crm/:instance/summary"] as const;
const cxPaths = ["/cx/owners", "/cx/book", "/cx/districts"] as const;

const all = (paths: readonly string[], variant: string) => Object.fromEntries(paths.map((p) => [p, variant]));

export const DEFAULT_SCENARIO = "default";

export const scenarioList: readonly Scenario[] = [
  {
    name: DEFAULT_SCENARIO,
    description: "Every endpoint at its richest variant: a signed-in CSM lead with every system connected and a synced CRM.",
    examples: {},
  },
  {
    name: "new-customer",
    description:
      "A person who has just arrived: nothing connected (vendor reads 401 <slug>_not_connected, calls 403 not opted in, checks not-connected), no favourites, no home page. The organisation's CRM and CX views are already synced.",
    examples: {
      "/me/favourites": "empty",
      "/me/home": "empty",
      "/connections/:slug/check": "not_connected",
      ...all(vendorReads, "not_connected"),
      ...all(callPaths, "not_opted_in"),
    },
  },
  {
    name: "signed-out",
    description: "A viewer who is not signed in: every API path answers 401 unauthorized.",
    examples: all(
      endpoints.map((e) => e.path),
      "signed_out",
    ),
  },
  {
    name: "outage",
    description:
      "Every outside system failing: vendor reads 502 <slug>_upstream_error, checks failed, the last CRM sync failed (CRM data still answers from the previous one) and the CX views 500 internal_error.",
    examples: {
      "/connections/:slug/check": "failed",
      ...all([...vendorReads, ...callPaths, ...portalPaths], "upstream_error"),
      "/crm/:instance/sources": "failed",
      ...all(cxPaths, "server_error"),
    },
  },
  {
    name: "non-monetary",
    description: "The CRM at a non-monetary instance's shapes: companies with arr null, no deals, a summary without pipeline.",
    examples: all([...crmData, "/crm/:instance/sources"], "non_monetary"),
  },
  {
    name: "first-sync",
    description:
      "A deployment still waiting on its first CRM portal sync: CRM data 503 crm_not_synced, /sources running with progress, the CX views {ok: false, waitingOn}.",
    examples: {
      ...all(crmData, "not_synced"),
      "/crm/:instance/sources": "not_synced",
      ...all(cxPaths, "waiting"),
    },
  },
  {
    name: "empty",
    description: "Signed in and connected, with nothing in any list: empty lists, zero totals, a null home path.",
    examples: {
      ...all(["/me/favourites", "/me/home", ...crmData, ...vendorReads, ...callPaths, ...portalPaths, ...cxPaths], "empty"),
    },
  },
  {
    name: "member",
    description:
      "A signed-in member without the admin or cx groups and nothing connected: the customers CRM answers, /crm/users/* and the CX views 403 forbidden.",
    examples: {
      "/me": "member",
      "/me/favourites": "empty",
      "/me/home": "empty",
      "/connections/:slug/check": "not_connected",
      ...all(vendorReads, "not_connected"),
      ...all(callPaths, "not_opted_in"),
      ...all(["/crm/users/companies", "/crm/users/contacts", "/crm/users/deals", "/crm/users/summary", "/crm/users/sources"], "forbidden"),
      ...all(cxPaths, "forbidden"),
    },
  },
  {
    name: "unconfigured",
    description: "A deployment with no outside system configured: vendor reads 503 <slug>_not_configured, checks not-configured.",
    examples: {
      "/connections/:slug/check": "not_configured",
      ...all([...vendorReads, ...callPaths, ...portalPaths], "not_configured"),
    },
  },
  {
    // Districts dealt out among several CSMs (shared-districts.ts); a test holds the description to the data.
    name: "shared-districts",
    description:
      "Districts shared among CSMs, for ownership tasks (everything else as default). Each district of three or more schools is split between two or three CSMs with unequal counts, its own CSM keeping half (rounded up), so one owns most: Clear Crossing Independent School District is Marcus Bell 4, Priya Raman 2, Casey Morgan 2. Lakefield Public Schools is a tie, one school each for Casey Morgan and Elena Voss; Oak Falls Public Schools and Pine Park Community Schools keep one CSM. Dana Whitfield, who has left (gone from /cx/owners?activeOnly=true), still owns most of Lake Valley Unified School District and Silver Grove Public Schools. Every book spans several districts and overlaps others. Who owns a school: the /cx/book?owner= whose rows name it (by districtName); /cx/districts lists the same districts.",
    examples: all(cxPaths, "shared_districts"),
  },
];

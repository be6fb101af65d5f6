import type { ConnectionCheck, Favourite, Me } from "@/lib/contract/resources";
import { permissionsFor } from "@/lib/auth/permissions";
import { DEMO_MEMBER_EMAIL } from "@/demo/tenant";
import { PROBES } from "./data";

// The edge answers of the demo API, written by hand: the states a dashboard must survive
// (signed out, nothing connected, not configured, an outage, a first sync still running) with
// the hints the real API gives in each.

export const hints = {
  unauthorized: "Sign in at /signin, then retry.",
  internal_error: "Something went wrong on our side; try again shortly.",
  upstream: "The upstream failed; try again shortly.",
  crmportal_upstream: "The CRM portal failed; try again shortly.",
  calls_not_opted_in: "Opt in to call recordings at /connections.",
  calls_donor_not_connected: "An admin connects the shared call-recording credential at /connections.",
  crmportal_not_configured: "No CRM portal is configured in this deployment.",
} as const;

/** The vendor products behind the neutral connector slugs, as the real hints name them. */
export const products = { tracker: "Linear", coderepo: "GitHub", calls: "Gong", support: "Intercom", crmportal: "HubSpot" } as const;
export type Slug = keyof typeof products;

export const notConnectedHint = (slug: Slug) => `Connect ${products[slug]} at /connections.`;
export const notConfiguredHint = (slug: Slug) => `No ${products[slug]} connection is configured in this deployment.`;

export const crmNotSyncedHint = (params: Readonly<Record<string, string>>) => {
  const instance = params.instance ?? "customers";
  return `The first CRM portal sync of "${instance}" has not completed yet; /crm/${instance}/sources shows its progress.`;
};

/** A member without the admin or cx group: the customers CRM only. */
export const memberMe: Me = { email: DEMO_MEMBER_EMAIL, groups: [], permissions: permissionsFor([]) };

export const favourites: Favourite[] = [
  { href: "/~/csm/my-book", label: "My book of business" },
  { href: "/~/csm/district-health", label: "District health" },
  { href: "/~/csm/renewals", label: "Renewals this quarter" },
];

export const homePath = "/~/csm/my-book";

const titles: Record<Slug, string> = {
  tracker: "Issue tracker",
  coderepo: "Code hosting",
  calls: "Call recording",
  support: "Customer messaging",
  crmportal: "CRM portal",
};

function check(slug: Slug, rest: Pick<ConnectionCheck, "status" | "summary" | "details" | "durationMs">): ConnectionCheck {
  return { slug, title: titles[slug], status: rest.status, ok: rest.status === "ok", summary: rest.summary, probe: PROBES[slug], details: rest.details, durationMs: rest.durationMs };
}

/**
 * The viewer has connected nothing. The CRM portal is read with the organisation's credential,
 * not the viewer's, so its check is unaffected (`null`: keep the rich answer).
 */
export const notConnectedCheck = (slug: Slug): ConnectionCheck | null =>
  slug === "crmportal"
    ? null
    : check(slug, {
        status: "not-connected",
        summary: slug === "calls" ? hints.calls_not_opted_in : notConnectedHint(slug),
        details: [],
        durationMs: 2,
      });

export const notConfiguredCheck = (slug: Slug): ConnectionCheck =>
  check(slug, { status: "not-configured", summary: `${products[slug]} is not configured in this deployment.`, details: [], durationMs: 0 });

export const failedCheck = (slug: Slug): ConnectionCheck =>
  check(slug, {
    status: "failed",
    summary: `${products[slug]} answered with an error (502).`,
    details: [{ label: "Failure", value: "server" }],
    durationMs: 1840,
  });

/** The first sync of the CRM portal, part-way through: the numbers /sources and the CX views agree on. */
export const firstSync = {
  /** Share of the expected rows done so far. */
  share: 0.4,
  startedMinutesAgo: 6,
  /** The CX views' answer meanwhile (lib/cx/ready's wording for this progress). */
  waitingOn: "the first CRM portal sync (running, 40% done)",
} as const;

export const failedSync = {
  lastRunHoursAgo: 2,
  lastSuccessHoursAgo: 26,
  lastError: "The CRM portal answered 502 Bad Gateway; the next run retries.",
} as const;

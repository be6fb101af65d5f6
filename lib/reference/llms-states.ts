import { endpoints } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { catalogue, isErrorVariant, scenarios, type Variant } from "@/lib/demo-api/data";
import type { Doc } from "./llms-guide";

// The table of states a dashboard must survive: for each demo variant, where it is offered,
// what it answers, which scenarios use it (all read from the demo API's data) and what a
// dashboard should show (written here, one line per variant; a test holds it to the registry).

/** What a dashboard shows for each variant, in the order the table lists them. */
export const renderAdvice: Readonly<Record<string, { state: string; render: string }>> = {
  rich: { state: "Data", render: "The dashboard itself." },
  empty: {
    state: "Empty",
    render: "An explicit empty state (\"No open conversations\"), zero totals as 0; never a blank panel or an endless spinner. A null home path is the built-in landing page.",
  },
  non_monetary: {
    state: "Partial data",
    render: "Hide money: `arr` is null, deals are empty, `pipeline` is missing. Show a null as \"—\" or leave the column out, never as 0.",
  },
  crm_only: {
    state: "Partial data",
    render: "Rows without `health` or `reach` (null): show \"no health data\", not a POOR band or 0%.",
  },
  quiet: {
    state: "Partial data",
    render: "Districts with no touch in the window: the silence flag, and \"no contact in this window\" for a null `daysSinceContact` (not \"never\"); a null health as \"no health data\".",
  },
  shared_districts: { state: "Data", render: "Districts with several CSMs: count each district's schools per owner across the books; say so when two tie." },
  waiting: { state: "Waiting", render: "The `waitingOn` text, not zeroes and not an empty table." },
  not_synced: {
    state: "Waiting",
    render:
      "\"First sync in progress\" with the hint; `/crm/:instance/sources` has `progress` (`done` of `expected`) and `rateLimits`.",
  },
  never_run: { state: "Waiting", render: "\"No sync has run yet\" (sources with `status: \"never_run\"` and null times)." },
  signed_out: { state: "Signed out", render: "A sign-in prompt with the hint. No data and no snapshot." },
  member: {
    state: "Less access",
    render: "`/me` without the `admin` and `cx` groups: the panels that need them answer 403; show those as \"no access\", keep the rest.",
  },
  forbidden: { state: "No access", render: "\"You don't have access to this\" with the hint. No data and no snapshot." },
  not_connected: {
    state: "Not connected",
    render:
      "\"Connect <system>\" with the hint, as text (the page above the frame links to /connections). A connection check answers 200 with `ok: false`: branch on `ok`.",
  },
  not_opted_in: { state: "Not opted in", render: "\"Opt in to call recordings at /connections\" with the hint." },
  donor_missing: { state: "Not connected", render: "\"An admin must connect the shared call-recording credential\" with the hint." },
  not_configured: {
    state: "Not configured",
    render: "\"Not set up in this deployment\" with the hint; hide or grey out the panel. No snapshot.",
  },
  failed: {
    state: "Failed",
    render: "Checks: `status: \"failed\"` with `summary`. Sources: `lastError`, and how old the numbers are (`lastSuccessAt`).",
  },
  upstream_error: {
    state: "Outage",
    render: "\"<system> did not answer\" with a retry. A snapshot fallback may stand in (5xx).",
  },
  server_error: { state: "Outage", render: "An error with a retry. A snapshot fallback may stand in (5xx)." },
};

const SLUG_PREFIX = /^(tracker|coderepo|calls|support|crmportal)_/;

/** The variant names the registry offers anywhere, in catalogue order. */
export function variantNames(): string[] {
  return [...new Set(endpoints.flatMap((e) => Object.keys(catalogue[e.id])))];
}

function answersOf(variant: string): string {
  const codes = new Set<string>();
  let data = false;
  for (const e of endpoints) {
    if (!Object.hasOwn(catalogue[e.id], variant)) continue;
    const v = (catalogue[e.id] as Readonly<Record<string, Variant<unknown>>>)[variant];
    if (!v) continue;
    if (isErrorVariant(v)) codes.add(v.error);
    else data = true;
  }
  // One code per vendor reads as one pattern: `<slug>_not_connected`.
  const byPattern = new Map<string, string[]>();
  for (const code of codes) {
    const pattern = code.replace(SLUG_PREFIX, "<slug>_");
    byPattern.set(pattern, [...(byPattern.get(pattern) ?? []), code]);
  }
  const errors = [...byPattern].map(([pattern, list]) => {
    const status = errorCatalogue[list[0] as keyof typeof errorCatalogue].status;
    return `${status} \`${list.length > 1 ? pattern : list[0]}\``;
  });
  return [...(data ? [variant === "waiting" ? "200 `{ok: false, waitingOn}`" : "200"] : []), ...errors].join(", ");
}

function pathsOf(variant: string): string {
  const offering = endpoints.filter((e) => Object.hasOwn(catalogue[e.id], variant));
  if (offering.length === endpoints.length) return "every path";
  const list = (es: readonly { path: string }[]) => es.map((e) => `\`${e.path}\``).join(", ");
  const others = endpoints.filter((e) => !offering.includes(e));
  return others.length < offering.length ? `every path but ${list(others)}` : list(offering);
}

function scenariosOf(variant: string): string {
  const names = scenarios.filter((s) => Object.values(s.examples).includes(variant) || (variant === "rich" && Object.keys(s.examples).length === 0)).map((s) => `\`${s.name}\``);
  return names.join(", ") || "none (pick it in `examples`)";
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

export function statesSection(doc: Doc): void {
  const names = variantNames();
  const missing = names.filter((n) => !renderAdvice[n]);
  if (missing.length) throw new Error(`llms.txt has no advice for the demo variants ${missing.join(", ")}`);
  doc.push(`## States to render`, "");
  doc.push(
    `Each demo variant is one state a dashboard meets on real data. Pick a whole scenario (\`scenario\`) or one variant per path (\`examples\`), and make every state below readable. Loading has no variant (the demo API answers at once): it is what the page shows before its first answer, so draw a placeholder ("Loading…") from the start, never zeroes.`,
    "",
    `| State | Variant | Offered on | Answer | Scenarios | Render |`,
    `|---|---|---|---|---|---|`,
  );
  for (const name of Object.keys(renderAdvice).filter((n) => names.includes(n))) {
    const advice = renderAdvice[name];
    if (!advice) continue;
    doc.push(`| ${advice.state} | \`${name}\` | ${cell(pathsOf(name))} | ${cell(answersOf(name))} | ${cell(scenariosOf(name))} | ${cell(advice.render)} |`);
  }
  doc.push("");
}

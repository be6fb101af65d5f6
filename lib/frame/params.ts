// Address parameters a dashboard reads: `?p.days=90&p.from=2026-01-01` on a watch or saved page
// becomes `window.DASHBOARD_PARAMS = {days: "90", from: "2026-01-01"}` in its frame, so one saved
// dashboard serves several windows. Browser-safe; the host parses, the frame's bootstrap checks
// the same bounds again before it hands the object to the dashboard.
//
// The address is anyone's to write (a link in a chat), so what reaches the dashboard is bounded
// in names, lengths and count, and travels only as data in the frame's init message: never
// written into HTML or script text.

/** The prefix that marks a parameter as the dashboard's rather than the page's. */
const DASHBOARD_PARAM_PREFIX = "p.";
import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX, DASHBOARD_PARAMS_MAX } from "@/lib/contract/dashboard-params";

export { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX, DASHBOARD_PARAMS_MAX };
/** The dropped parameters a notice names; the rest are counted. */
const DROPPED_NAMED_MAX = 5;
/** The longest dropped name a notice repeats, so a hostile address cannot fill the page. */
const DROPPED_NAME_SHOWN = 40;

export type DashboardParams = Readonly<Record<string, string>>;

/** The convention, as /endpoints and the reference state it. */
export const dashboardParamsConvention =
  `A watch page or saved dashboard opened with ?p.<name>=<value> hands the dashboard those values as window.DASHBOARD_PARAMS (?p.days=90&p.from=2026-01-01 gives {days: "90", from: "2026-01-01"}), so one dashboard serves several windows. ` +
  `Only names matching ${DASHBOARD_PARAM_NAME.source}, values of at most ${DASHBOARD_PARAM_VALUE_MAX} characters without control characters, the first of a repeated name and at most ${DASHBOARD_PARAMS_MAX} are passed; the page names the rest. ` +
  `Values are strings; the object is frozen, has no prototype and is {} when there are none. Check each value's shape, fall back to a default, and write it into the page as text.`;

type DropReason = "name" | "long" | "control" | "repeated" | "too-many";

interface DroppedParam {
  /** The name as the address gave it after the prefix, clipped for display. */
  name: string;
  reason: DropReason;
}

interface ParsedParams {
  params: DashboardParams;
  dropped: DroppedParam[];
}

// C0 and C1 controls, and the bidirectional and other format characters a label could hide behind.
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

function clipName(name: string): string {
  const clean = name.replace(new RegExp(UNSHOWN.source, "g"), "\ufffd");
  return clean.length > DROPPED_NAME_SHOWN ? `${clean.slice(0, DROPPED_NAME_SHOWN)}…` : clean;
}

/**
 * The dashboard's parameters from a page's query: pairs as `URLSearchParams` gives them, or a
 * framework's `searchParams` record. Parameters without the prefix are the page's and ignored
 * here; a repeated name keeps its first value.
 */
export function parseDashboardParams(query: URLSearchParams | Record<string, string | string[] | undefined>): ParsedParams {
  const pairs: [string, string][] = [];
  if (query instanceof URLSearchParams) {
    for (const [k, v] of query) pairs.push([k, v]);
  } else {
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) pairs.push([k, one]);
    }
  }
  // A null prototype: `__proto__` or `constructor` as a key can be neither read nor set by accident.
  const params = Object.create(null) as Record<string, string>;
  const dropped: DroppedParam[] = [];
  let kept = 0;
  for (const [key, value] of pairs) {
    if (!key.startsWith(DASHBOARD_PARAM_PREFIX)) continue;
    const name = key.slice(DASHBOARD_PARAM_PREFIX.length);
    const drop = (reason: DropReason) => dropped.push({ name: clipName(name), reason });
    if (!DASHBOARD_PARAM_NAME.test(name)) drop("name");
    else if (typeof value !== "string" || value.length > DASHBOARD_PARAM_VALUE_MAX) drop("long");
    else if (UNSHOWN.test(value)) drop("control");
    else if (Object.hasOwn(params, name)) drop("repeated");
    else if (kept >= DASHBOARD_PARAMS_MAX) drop("too-many");
    else {
      params[name] = value;
      kept++;
    }
  }
  return { params: Object.freeze(params), dropped };
}

const REASON_TEXT: Record<DropReason, string> = {
  name: "not a name of lower-case letters, digits and _ (up to 32, starting with a letter)",
  long: `longer than ${DASHBOARD_PARAM_VALUE_MAX} characters`,
  control: "holds control or invisible characters",
  repeated: "given more than once (the first value is used)",
  "too-many": `more than ${DASHBOARD_PARAMS_MAX} parameters`,
};

/**
 * Parameters given as an object (a render request, an MCP call), checked exactly as the page
 * checks `?p.` ones: null when the page would pass every one to the dashboard, else a sentence
 * naming each it would not, and why.
 */
export function dashboardParamsProblem(given: Readonly<Record<string, string>>): string | null {
  const { dropped } = parseDashboardParams(Object.fromEntries(Object.entries(given).map(([k, v]) => [`${DASHBOARD_PARAM_PREFIX}${k}`, v])));
  if (dropped.length === 0) return null;
  const named = dropped.slice(0, DROPPED_NAMED_MAX).map((d) => `${JSON.stringify(d.name)} (${REASON_TEXT[d.reason]})`);
  const more = dropped.length - named.length;
  const prefixed = Object.keys(given).some((k) => k.startsWith(DASHBOARD_PARAM_PREFIX)) ? ` Name them without the "${DASHBOARD_PARAM_PREFIX}" prefix the address uses: {"district": "…"}.` : "";
  return `a watch page would not pass ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""} to the dashboard.${prefixed}`;
}

/** One sentence for the page: which parameters the dashboard was not given, and why. */
export function droppedText(dropped: readonly DroppedParam[]): string | null {
  if (dropped.length === 0) return null;
  const named = dropped.slice(0, DROPPED_NAMED_MAX).map((d) => `p.${d.name} (${REASON_TEXT[d.reason]})`);
  const more = dropped.length - named.length;
  const list = more > 0 ? `${named.join("; ")}; and ${more} more` : named.join("; ");
  return `${dropped.length === 1 ? "One address parameter was" : `${dropped.length} address parameters were`} not passed to the dashboard: ${list}.`;
}

/** The parameters as a stable key: a change starts the dashboard again. */
export function paramsKey(params: DashboardParams | undefined): string {
  if (!params) return "";
  return JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]));
}

/** Why a value typed for a parameter would not be passed on, as a sentence; null when it would. */
export function paramValueProblem(value: string): string | null {
  if (value.length > DASHBOARD_PARAM_VALUE_MAX) return `At most ${DASHBOARD_PARAM_VALUE_MAX} characters (this is ${value.length}).`;
  if (UNSHOWN.test(value)) return "No control or invisible characters.";
  return null;
}

/**
 * The address `href` (path, query and fragment) with its dashboard parameters replaced by
 * `params`: every other query parameter stays where it was, an empty value is left out.
 */
export function withDashboardParams(href: string, params: Readonly<Record<string, string>>): string {
  const url = new URL(href);
  const kept = [...url.searchParams].filter(([k]) => !k.startsWith(DASHBOARD_PARAM_PREFIX));
  const query = new URLSearchParams(kept);
  for (const [name, value] of Object.entries(params)) if (value !== "") query.append(`${DASHBOARD_PARAM_PREFIX}${name}`, value);
  const search = query.toString();
  return `${url.pathname}${search ? `?${search}` : ""}${url.hash}`;
}

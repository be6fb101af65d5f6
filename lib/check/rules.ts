import type { DraftWarning } from "@/lib/contract/resources";

// The rules of the static check, for the check itself, /docs and llms.txt.
//
// Severity says what happens to the dashboard, not how much the rule matters:
// - error: something does not work at all: a script that never runs, a request the GET-only
//   broker refuses, a resource the frame's Content-Security-Policy blocks, an API that throws in
//   the sandboxed frame, or a URL that is right in only one of the playground and the saved page;
// - warning: the dashboard runs but shows wrong or misleading figures, or breaks in a data state
//   the demo scenarios exercise (errors, waiting deployments, further pages);
// - info: valid, worth knowing.

type Severity = DraftWarning["severity"];

interface CheckRule {
  id: string;
  severity: Severity;
  description: string;
}

export const checkRules = [
  {
    id: "empty-document",
    severity: "error",
    description: "The draft has no HTML.",
  },
  {
    id: "js-syntax",
    severity: "error",
    description:
      "An inline script, event-handler attribute or JSON data block does not parse (or uses module syntax without type=\"module\"), so none of it runs.",
  },
  {
    id: "hardcoded-api-base",
    severity: "error",
    description:
      "A URL hard-codes \"/api\", \"/dashboards/playground/api\", an absolute API URL or an API path without the base, instead of building on window.DASHBOARD_API_BASE (falling back to \"/api\").",
  },
  {
    id: "non-get-request",
    severity: "error",
    description: "A request or form uses POST, PUT, PATCH, DELETE or another method than GET: the data broker answers GET only.",
  },
  {
    id: "external-resource",
    severity: "error",
    description:
      "A script, stylesheet, font, image, frame, module or request loads from a URL: the frame's Content-Security-Policy allows only inline code and data:/blob: images and fonts.",
  },
  {
    id: "forbidden-api",
    severity: "error",
    description:
      "document.cookie, localStorage, sessionStorage, indexedDB, top/parent/opener, window.open or location navigation: unavailable in the sandboxed frame (links open only as <a href> to a URL from the data).",
  },
  {
    id: "webrtc",
    severity: "error",
    description:
      "The code uses WebRTC (RTCPeerConnection, RTCDataChannel, RTCIceCandidate, …): the frame removes it before the dashboard runs, since a peer connection could carry data out.",
  },
  {
    id: "dead-link",
    severity: "warning",
    description:
      "A link's address is a hard-coded URL of another site (`<a href=\"https://…\">`, `a.href = \"https://…\"`): a dashboard's link opens, in a new tab on a real click, only when its href is exactly a URL from an API answer (such as an issue's or a call's `url`) or a page of this site, so this one never opens.",
  },
  {
    id: "scenario-in-code",
    severity: "warning",
    description: "The `scenario` query parameter appears in dashboard code; it selects demo data in the playground only.",
  },
  {
    id: "unchecked-fetch",
    severity: "warning",
    description: "A response body is read (.json(), .text()) without checking res.ok or res.status in the same function.",
  },
  {
    id: "read-unresolved",
    severity: "warning",
    description:
      "A fetch URL the check cannot read to one API path (a path computed at run time, a helper called with unknown paths): it is left out of the reads a viewer allows, so on live data the broker refuses it.",
  },
  {
    id: "cx-waiting-unhandled",
    severity: "warning",
    description: "A /cx/ answer is read without handling {ok: false, waitingOn}: the dashboard must show the waitingOn text, not zeroes.",
  },
  {
    id: "arr-summed",
    severity: "warning",
    description: "`arr` is summed across rows; ARR is district grain (every school carries its district's figure), so count it once per district.",
  },
  {
    id: "activity-basis-unlabelled",
    severity: "warning",
    description: "basis=activity is requested but no visible text labels the book as derived.",
  },
  {
    id: "priority-misrepresented",
    severity: "warning",
    description:
      "Priority is presented as a score, target, guarantee or SLA, or its score/percentile is shown without its `reasons`.",
  },
  {
    id: "paging-ignored",
    severity: "warning",
    description: "A paged endpoint (/crm/…/companies|contacts|deals, /vendors/support/conversations) is read without ever following nextCursor.",
  },
  {
    id: "snapshot-undated",
    severity: "warning",
    description:
      "The snapshot element (`<script type=\"application/json\" id=\"dashboard-snapshot\">`) has no `data-taken-at`, or one that is not an ISO-8601 date or date and time with an offset: the page cannot say how old the figures are.",
  },
  {
    id: "snapshot-helper-without-snapshot",
    severity: "warning",
    description: "window.dashboardSnapshot() is called but the document has no snapshot element, so the fallback always finds nothing.",
  },
  {
    id: "snapshot-unannounced",
    severity: "warning",
    description:
      "The dashboard fetches and embeds a snapshot but never calls window.dashboardSnapshot(): when it falls back, the viewer is not told the figures are not live.",
  },
  {
    id: "snapshot-without-live",
    severity: "info",
    description: "The document embeds its own data and never fetches from the API base: valid, but it will not update.",
  },
] as const satisfies readonly CheckRule[];

export type RuleId = (typeof checkRules)[number]["id"];

const severities = new Map<string, Severity>(checkRules.map((r) => [r.id, r.severity]));

export function severityOf(rule: RuleId): Severity {
  return severities.get(rule) ?? "warning";
}

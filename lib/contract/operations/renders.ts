import { PLAYGROUND_BASE as base, draftEvent } from "../playground";
import { REPORTS_PER_REVISION, REPORTS_PER_SOURCE, REPORT_REVISIONS, REPORT_WAIT_MAX_MS, renderReportAccepted, renderReportInput, renderReports, renderReportsQuery } from "../reports";
import { RENDER_VIEWPORTS, renderAnswer, renderInput } from "../renders";
import type { SiteOperationDef } from "./types";

// What becomes of a draft once written: its event stream, the render reports browsers send, and
// the service's own renders of it (lib/drafts/reports.ts, lib/drafts/renders.ts).

/** How long show_draft, told a revision the caller has, waits for a newer one before answering the same. */
export const SHOW_DRAFT_WAIT_MS = 25_000;

const sizes = Object.entries(RENDER_VIEWPORTS)
  .map(([name, v]) => `\`${name}\` (${v.width}×${v.height})`)
  .join(" and ");

const demoOnly =
  "Demo-mode drafts only: a live draft renders each viewer's own data, which must not flow back to its author, so its pages send no reports and the server refuses them (409 `reports_demo_only`).";

export const renderOperations = [
  {
    id: "playground.draftEvents",
    method: "GET",
    path: `${base}/draft/:read_id/events`,
    summary: "The draft's live stream of revisions",
    section: "events",
    errors: ["no_such_draft", "rate_limited", "shutting_down", "internal_error"],
    answer: draftEvent,
    tool: {
      name: "show_draft",
      title: "Show a draft inline",
      description: `Show the human a draft inline, following its revisions (MCP Apps; elsewhere give them watchUrl). afterRevision waits up to ${SHOW_DRAFT_WAIT_MS / 1000} s for a newer one.`,
    },
  },
  {
    id: "playground.renderReports",
    method: "GET",
    path: `${base}/draft/:read_id/reports`,
    summary: "What browsers saw when they rendered a revision: errors with their lines, console.error, refused requests, requests",
    section: "renders",
    description: [
      `The watch page (and the editor's preview of a shared draft) sends one report per revision each time it is opened, once the dashboard's requests have been answered and it has painted, or after ${REPORT_WAIT_MAX_MS / 1000} s. Read them after handing the watch link to a human, or after rendering it yourself with \`?static=1\`. \`line\` and \`column\` of an error are positions in the HTML you sent.`,
      `Anyone with the watch link may send a report, so each says where it came from, as the server saw it: \`source.kind\` is \`author\` when it was sent with the write link (you, or the editor that shared the draft) and \`watcher\` otherwise, with one \`source.id\` per watcher's address. At most ${REPORTS_PER_REVISION} are kept for each of the latest ${REPORT_REVISIONS} revisions and ${REPORTS_PER_SOURCE} from one source; a report with errors is kept over a clean one, so no number of clean reports hides an error. \`sources\` counts the distinct sources and what each says (failing if any of its reports found errors): trust a revision as clean when the sources that rendered it agree, and your own (\`author\`) is among them.`,
      demoOnly,
    ],
    errors: ["no_such_draft", "reports_demo_only", "invalid_query", "rate_limited", "internal_error"],
    query: renderReportsQuery,
    answer: renderReports,
    tool: {
      name: "read_render_reports",
      title: "Read what browsers saw rendering a draft",
      description:
        "What browsers saw rendering a revision of a demo draft: errors with their line in your HTML, console.error lines, refused requests, requests made.",
    },
  },
  {
    id: "playground.sendRenderReport",
    method: "POST",
    path: `${base}/draft/:read_id/reports`,
    summary: "Send a render report (the watch page does this)",
    section: "renders",
    description: [
      "Sent by the playground's own pages; an agent has no need to. Anyone with the read id may send one, so a report says what some browser said, and is counted as a watcher's. Sent to the write link's path instead (`POST <postUrl>/reports`), it is the author's own.",
      demoOnly,
    ],
    errors: ["no_such_draft", "reports_demo_only", "revision_not_recent", "invalid_report", "report_too_large", "unsupported_media_type", "cross_site_write", "rate_limited", "internal_error"],
    input: renderReportInput,
    answer: renderReportAccepted,
  },
  {
    id: "playground.render",
    method: "POST",
    path: `${base}/draft/:read_id/render`,
    summary: "Have the service draw a revision in its own browser: a picture of the whole dashboard and the render report",
    section: "renders",
    description: [
      `The service opens the revision in its own headless Chromium, through the same frame and broker a watcher gets, on the demo API with the scenario and variants you name (the revision's own by default), at ${sizes}, waits until the dashboard settles, and answers the render report with a PNG of the whole dashboard (the frame sized to its content, so the picture is as tall as the dashboard). Each revision, viewport and state is drawn once and kept: asked again, the stored render is answered (\`cached: true\`) and costs nothing.`,
      "`params` draws it with page parameters: `{\"district\": \"Northwind\"}` reaches the dashboard as `window.DASHBOARD_PARAMS`, as `?p.district=Northwind` on the watch page would. They are checked by the page's own rules, but a parameter the page would drop is refused here (`400` `invalid_render`, naming it and why) rather than drawn without. Each parameter set is its own render and its own report: the revision's reports say which parameters each was drawn with (`params`), and a source keeps its reports per parameter set.",
      "The report is the service's own (`source.kind` `service`): drawn in the revision's own state, it is also among the revision's render reports, where nothing posted from outside displaces it. A dashboard that never finishes drawing (a script that never yields) is answered 504 `render_timed_out`, and the service's report says so.",
      "Demo-mode drafts only (409 `render_demo_only`): a live draft reads each viewer's own data, and the server has no viewer. Without a browser in the deployment, 503 `renderer_not_configured`. Renders are bounded: a few at a time with a short queue (503 `renderer_busy` with `Retry-After` past it), a time limit, and renders per address and per draft per minute (429 `rate_limited`).",
    ],
    errors: [
      "no_such_draft",
      "no_such_revision",
      "render_demo_only",
      "unknown_scenario",
      "unknown_example",
      "invalid_render",
      "unsupported_media_type",
      "cross_site_write",
      "renderer_not_configured",
      "renderer_busy",
      "render_timed_out",
      "rate_limited",
      "internal_error",
    ],
    input: renderInput,
    answer: renderAnswer,
    tool: {
      name: "render_draft",
      title: "Render a draft in the service's own browser, and see it",
      description:
        "The service draws one revision of a demo draft in its own browser and answers a PNG of the whole dashboard (image content) with the render report. Choose `viewport` (`desktop`, `phone`), the state (`scenario`, `examples`) and page `params`; each combination is drawn once and kept.",
    },
  },
  {
    id: "playground.renderPicture",
    method: "GET",
    path: `${base}/draft/:read_id/render/:file`,
    summary: "A render's picture (PNG)",
    section: "renders",
    description: [
      "The address a render answered as `picture.url`. The same address always answers the same bytes, so it may be cached for as long as the revision is kept.",
      "A demo draft's watch page names the picture of its current revision, at `desktop` in the revision's own scenario and variants, as its link preview (`og:image`). That one address (and its `phone` twin) is drawn on its first GET when nobody has rendered it yet, under the renders' allowances and the renderer's bounds; any other address that was never rendered is 404. A live draft's never is: it would need a viewer's data.",
    ],
    errors: ["not_found", "rate_limited", "renderer_not_configured", "renderer_busy", "render_timed_out", "internal_error"],
  },
] as const satisfies readonly SiteOperationDef[];

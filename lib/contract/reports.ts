import { z } from "zod";
import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX, DASHBOARD_PARAMS_MAX } from "./dashboard-params";
import { REPORTS_PER_REVISION, REPORTS_PER_SOURCE, REPORT_REVISIONS, REPORT_ERRORS_MAX, REPORT_CONSOLE_MAX, REPORT_REFUSALS_MAX, REPORT_REQUESTS_MAX, REPORT_MESSAGE_MAX, REPORT_PATH_MAX, REPORT_REASON_MAX, REPORT_TEXT_MAX, REPORT_WAIT_MAX_MS } from "./report-limits";

// Render reports: what happened when a browser rendered one revision of a demo-mode draft
// (uncaught errors, console.error lines, refused requests, the requests the broker relayed).
// The watch page and the editor's preview send one per revision and page load; the agent reads
// them, because from its side a dashboard that throws looks the same as one that works.
//
// Shared by the server (which parses every report with these schemas), the host pages (which
// bound what they send by the same numbers), /docs and llms.txt.

export * from "./report-limits";

/** Largest `elapsedMs`, `ms` and `count` a report may carry. */
const DURATION_MAX_MS = 600_000;
const COUNT_MAX = 1_000_000_000;

/** Text as a report carries it: no control characters other than tab and newline. */
const NO_CONTROLS = /^[^\u0000-\u0008\u000b-\u001f\u007f]*$/;

function text(max: number, what: string, min = 0) {
  return z
    .string()
    .min(min, `${what} must not be empty`)
    .max(max, `${what} must be at most ${max} characters`)
    .regex(NO_CONTROLS, `${what} must hold no control characters other than tab and newline`);
}

const count = z
  .number()
  .int()
  .min(1)
  .max(COUNT_MAX)
  .meta({ description: "How many times this same entry happened" });

const position = z.number().int().min(1).max(COUNT_MAX).nullable();

export const renderError = z
  .object({
    kind: z.enum(["error", "rejection"]).meta({ description: "`error`: an uncaught exception; `rejection`: a promise rejected with no handler" }),
    message: text(REPORT_MESSAGE_MAX, "message", 1),
    line: position.meta({
      description:
        "Line in the dashboard's HTML document, from 1; null when the code that threw is not a script written in the document (one the dashboard created, an event-handler attribute, eval) or the error had no location",
    }),
    column: position.meta({ description: "Column on that line, from 1; null with `line`" }),
    count,
  })
  .strict()
  .meta({ id: "RenderError" });

export const renderConsoleLine = z
  .object({
    message: text(REPORT_MESSAGE_MAX, "message", 1).meta({ description: "What the dashboard passed to console.error, as the console would print it" }),
    count,
  })
  .strict()
  .meta({ id: "RenderConsoleLine" });

const method = z.string().regex(/^[A-Z]{1,16}$/, "method must be 1 to 16 capital letters");

export const renderRefusal = z
  .object({
    method: method.nullable().meta({ description: "The request's method; null for what the frame's policy blocked" }),
    path: text(REPORT_PATH_MAX, "path").meta({ description: "What the dashboard asked for, as it wrote it" }),
    error: z
      .string()
      .regex(/^[a-z_]{1,64}$/, "error must be a code of lowercase letters and underscores")
      .meta({
        description:
          "Why: the broker's code (`invalid_path`, `not_found`, `invalid_query`, `rate_limited`, …), `method_not_allowed` for a write the frame refused, or `blocked_by_policy` for a request outside the broker (XMLHttpRequest, WebSocket, an image from another site) that the frame's Content-Security-Policy stopped",
      }),
    reason: text(REPORT_REASON_MAX, "reason").meta({ description: "The refusal in words, as the dashboard was told" }),
    count,
  })
  .strict()
  .meta({ id: "RenderRefusal" });

export const renderRequest = z
  .object({
    method,
    path: text(REPORT_PATH_MAX, "path").meta({ description: "Relative to the API base, query included, e.g. `/crm/customers/companies?limit=5`" }),
    status: z.number().int().min(100).max(599).meta({ description: "The answer's status, as the dashboard saw it" }),
    ms: z.number().int().min(0).max(DURATION_MAX_MS).meta({ description: "Milliseconds from the request to its answer" }),
  })
  .strict()
  .meta({ id: "RenderRequest" });

/** What a report says about one render, whoever sent it. */
const reportFields = {
  page: z.enum(["watch", "editor"], { error: 'must be "watch" or "editor": where the dashboard rendered' }).meta({ description: "Where it rendered: the watch page, or the editor's preview" }),
  settled: z.boolean().meta({
    description: `True when the dashboard's requests had all been answered and it had painted; false when the report was sent after ${REPORT_WAIT_MAX_MS / 1000} s with requests still out`,
  }),
  elapsedMs: z.number().int().min(0).max(DURATION_MAX_MS).meta({ description: "Milliseconds from the dashboard's start to the report" }),
  errors: z.array(renderError).max(REPORT_ERRORS_MAX, `errors: at most ${REPORT_ERRORS_MAX}`),
  console: z.array(renderConsoleLine).max(REPORT_CONSOLE_MAX, `console: at most ${REPORT_CONSOLE_MAX}`),
  refusals: z.array(renderRefusal).max(REPORT_REFUSALS_MAX, `refusals: at most ${REPORT_REFUSALS_MAX}`),
  requests: z.array(renderRequest).max(REPORT_REQUESTS_MAX, `requests: at most ${REPORT_REQUESTS_MAX}`),
  dropped: z
    .number()
    .int()
    .min(0)
    .max(COUNT_MAX)
    .meta({ description: "Entries left out because a list was full or the report's text reached its limit" }),
  params: z
    .record(
      z.string().regex(DASHBOARD_PARAM_NAME, `a parameter's name must match ${DASHBOARD_PARAM_NAME.source}`),
      text(DASHBOARD_PARAM_VALUE_MAX, "a parameter's value"),
    )
    .refine((p) => Object.keys(p).length <= DASHBOARD_PARAMS_MAX, `params: at most ${DASHBOARD_PARAMS_MAX}`)
    .default({})
    .meta({ description: "The page parameters the dashboard was given (window.DASHBOARD_PARAMS, from ?p.<name>=<value>); reports are kept per parameter set, {} for none" }),
};

type ReportText = { errors: { message: string }[]; console: { message: string }[]; refusals: { path: string; reason: string }[]; requests: { path: string }[] };

/** Characters of every text field of a report together, the figure REPORT_TEXT_MAX bounds. */
function reportTextLength(r: ReportText): number {
  let n = 0;
  for (const e of r.errors) n += e.message.length;
  for (const c of r.console) n += c.message.length;
  for (const f of r.refusals) n += f.path.length + f.reason.length;
  for (const q of r.requests) n += q.path.length;
  return n;
}

const withinTextBudget = (r: ReportText, ctx: z.RefinementCtx) => {
  const n = reportTextLength(r);
  if (n > REPORT_TEXT_MAX) ctx.addIssue({ code: "custom", message: `the report's text fields hold ${n} characters together; at most ${REPORT_TEXT_MAX}` });
};

const renderedRevision = "must be a positive integer: the revision that rendered (e.g. 3)";

/** POST /draft/<read_id>/reports: one render of one revision. */
export const renderReportInput = z
  .object({
    revision: z
      .number({ error: (issue) => (issue.input === undefined ? "required: the revision that rendered, a positive integer" : renderedRevision) })
      .int(renderedRevision)
      .min(1, renderedRevision)
      .meta({ description: `The revision that rendered: one of the draft's latest ${REPORT_REVISIONS}` }),
    ...reportFields,
  }, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unrecognized field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(", ")}: a render report's fields are ${["revision", ...Object.keys(reportFields)].join(", ")}.`
        : "The body must be a JSON object: a render report, as GET /dashboards/playground/draft/<read_id>/reports answers them, with revision.",
  })
  .strict()
  .superRefine(withinTextBudget)
  .meta({ id: "RenderReportInput" });

/** Who sent a report, as the server saw it: never what the report says of itself. */
export const reportSource = z
  .object({
    kind: z.enum(["service", "author", "watcher"]).meta({
      description:
        "`service`: the service's own renderer (POST /draft/<read_id>/render), which nothing sent from outside can displace; `author`: sent with the draft's write link (the agent, or the editor that shared it); `watcher`: sent with the read id, by anyone who has the watch link",
    }),
    id: z
      .string()
      .regex(/^[a-z]-[A-Za-z0-9_-]{1,32}$/)
      .meta({ description: "Stands for one sender: `s-renderer` for the service, `a-author` for the author, `w-…` per watcher's network address (a keyed digest, never the address)" }),
  })
  .strict()
  .meta({ id: "ReportSource" });

/** One stored report, as GET /draft/<read_id>/reports answers it. */
export const renderReport = z
  .object({
    at: z.number().int().meta({ description: "Epoch ms when the server received the report" }),
    source: reportSource,
    ...reportFields,
    page: z.enum(["watch", "editor", "render"]).meta({ description: "Where it rendered: the watch page, the editor's preview, or the service's renderer" }),
  })
  .strict()
  .meta({ id: "RenderReport" });

/** How many distinct senders reported on a revision, each counted once: failing if any of its reports found errors. */
export const reportSources = z
  .object({
    total: z.number().int().min(0).meta({ description: "Distinct sources among the kept reports" }),
    failing: z.number().int().min(0).meta({ description: "Sources with a report that found errors" }),
    clean: z.number().int().min(0).meta({ description: "Sources whose reports found no errors, one of them settled" }),
    unsettled: z.number().int().min(0).meta({ description: "Sources whose reports found no errors and never settled (requests still out)" }),
    author: z
      .enum(["failing", "clean", "unsettled", "none"])
      .meta({ description: "What the author's own reports say, counted the same way (`none`: the author sent none)" }),
    service: z
      .enum(["failing", "clean", "unsettled", "none"])
      .meta({ description: "What the service's own renders of this revision say (`none`: it has not rendered it; POST /draft/<read_id>/render does)" }),
  })
  .strict()
  .meta({ id: "ReportSources" });

/** The answer to POST /draft/<read_id>/reports. */
export const renderReportAccepted = z
  .object({
    revision: z.number().int().min(1),
    at: z.number().int().meta({ description: "Epoch ms when the report was stored" }),
    source: reportSource,
  })
  .meta({ id: "RenderReportAccepted" });

/** GET /draft/<read_id>/reports */
export const renderReports = z
  .object({
    revision: z.number().int().min(1).meta({ description: "The revision these reports are about" }),
    currentRevision: z.number().int().min(1).meta({ description: "The draft's current revision" }),
    reports: z.array(renderReport).meta({
      description: `Newest first; at most ${REPORTS_PER_REVISION}, at most ${REPORTS_PER_SOURCE} from one source for one parameter set, and reports with errors kept over clean ones. Empty until a browser has rendered the revision (and for revisions older than the latest ${REPORT_REVISIONS})`,
    }),
    sources: reportSources,
  })
  .meta({ id: "RenderReports" });

const revisionMessage = "must be a positive integer, a revision of this draft (e.g. ?revision=2)";

/** The query of GET /draft/<read_id>/reports. */
export const renderReportsQuery = z
  .object({
    revision: z
      .string()
      .regex(/^[0-9]{1,15}$/, revisionMessage)
      .transform(Number)
      .pipe(z.number().int().min(1, revisionMessage))
      .optional()
      .meta({ description: "The revision whose reports to answer; default: the current one" }),
  })
  .strict();

export type RenderError = z.infer<typeof renderError>;
export type RenderConsoleLine = z.infer<typeof renderConsoleLine>;
export type RenderRefusal = z.infer<typeof renderRefusal>;
export type RenderRequest = z.infer<typeof renderRequest>;
export type RenderReportInput = z.input<typeof renderReportInput>;
export type RenderReport = z.infer<typeof renderReport>;
export type RenderReportAccepted = z.infer<typeof renderReportAccepted>;
export type ReportSource = z.infer<typeof reportSource>;
export type ReportSources = z.infer<typeof reportSources>;
export type RenderReports = z.infer<typeof renderReports>;

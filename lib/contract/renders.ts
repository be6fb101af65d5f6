import { z } from "zod";
import { renderReport } from "./reports";

// The service's own renders of demo drafts: POST /draft/<read_id>/render draws a revision in the
// service's headless Chromium, through the frame and broker a watcher gets, and answers the
// render report (source `service`) with a PNG of the whole dashboard. Shared by the server, the
// MCP tool, /docs and llms.txt.

/** The sizes a render is drawn at: the browser's viewport, CSS pixels, one device pixel each. */
export const RENDER_VIEWPORTS = {
  desktop: { width: 1280, height: 800, mobile: false },
  phone: { width: 390, height: 844, mobile: true },
} as const;
export type RenderViewport = keyof typeof RENDER_VIEWPORTS;
const viewportNames = Object.keys(RENDER_VIEWPORTS) as [RenderViewport, ...RenderViewport[]];

const revisionForm = "must be a positive integer, a kept revision of this draft (e.g. 3); leave it out for the current one";
const RENDER_FIELDS = "revision, viewport, scenario, examples and params";

/** POST /draft/<read_id>/render (JSON; an empty body renders the current revision as it is). */
export const renderInput = z
  .object(
    {
      revision: z
        .number({ error: revisionForm })
        .int(revisionForm)
        .min(1, revisionForm)
        .optional()
        .meta({ description: "The revision to draw; default the current one" }),
      viewport: z
        .enum(viewportNames, { error: `must be ${viewportNames.map((v) => `"${v}"`).join(" or ")}` })
        .optional()
        .meta({ description: `The size to draw at: ${Object.entries(RENDER_VIEWPORTS).map(([k, v]) => `\`${k}\` (${v.width}×${v.height})`).join(", ")}; default \`desktop\`` }),
      scenario: z
        .string({ error: 'must be a scenario name, a string such as "outage"; GET /dashboards/playground/scenarios lists them' })
        .optional()
        .meta({ description: "Default the revision's own" }),
      examples: z
        .record(z.string(), z.string({ error: 'must be a variant name, a string such as "empty"' }), { error: 'must be an object of API path → variant name, e.g. {"/cx/book": "empty"}' })
        .optional()
        .meta({ description: "API path → variant; default the revision's own" }),
      params: z
        .record(z.string(), z.string({ error: 'must be a string: page parameters are strings, as ?p.days=90 gives "90"' }), {
          error: 'must be an object of parameter name → value, e.g. {"district": "Northwind"}: what ?p.district=Northwind on the watch page gives',
        })
        .optional()
        .meta({
          description: `window.DASHBOARD_PARAMS, as ?p.<name>=<value> gives them (names without "p."), checked as the watch page checks them; default none`,
        }),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `Unrecognized field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(", ")}: a render's fields are ${RENDER_FIELDS}.`
          : `The body must be a JSON object with any of ${RENDER_FIELDS}, or empty.`,
    },
  )
  .strict()
  .meta({ id: "RenderInput" });

const renderPicture = z
  .object({
    url: z.string().meta({ description: "Where the PNG is: the same address answers the same bytes for as long as the revision is kept, and may be cached" }),
    width: z.number().int().min(1).meta({ description: "Pixels: the viewport's width" }),
    height: z.number().int().min(1).meta({ description: "Pixels: the dashboard's whole height, not the viewport's" }),
    bytes: z.number().int().min(1),
  })
  .strict()
  .meta({ id: "RenderPicture" });

/** The answer to POST /draft/<read_id>/render. */
export const renderAnswer = z
  .object({
    revision: z.number().int().min(1),
    currentRevision: z.number().int().min(1).meta({ description: "The draft's current revision" }),
    viewport: z.enum(viewportNames),
    scenario: z.string(),
    examples: z.record(z.string(), z.string()),
    params: z.record(z.string(), z.string()).meta({ description: "The page parameters it was drawn with ({} for none)" }),
    report: renderReport.meta({ description: "What the service's own browser saw: the same shape as a watcher's report, with `source.kind` `service`" }),
    picture: renderPicture,
    cached: z.boolean().meta({ description: "True when this revision, viewport, state and parameter set had been drawn already: the stored render is answered" }),
  })
  .strict()
  .meta({ id: "RenderAnswer" });

/** The safe view's drawing: someone else's code drawn by the service on the viewer's own data (lib/saved/drawings.ts). */
export const drawingAnswer = z
  .object({
    html: z.string().meta({ description: "The inert document, whole: no script, no event handler, no address but `data:` images, its own Content-Security-Policy in a `<meta>`. Show it in `<iframe sandbox=\"\" srcdoc>`." }),
    drawnAt: z.string().meta({ description: "When it was drawn (ISO 8601)" }),
    height: z.number().int().min(0).meta({ description: "The height it was drawn at, in CSS pixels" }),
    revision: z.number().int().min(1),
    viewport: z.enum(viewportNames),
    remembered: z.boolean().meta({ description: "True when served from the drawing made before: every read it made answers as it did then" }),
    answers: z
      .array(z.object({ path: z.string().meta({ description: "Relative to the API base, with the query, as the code asked for it" }), status: z.number().int() }).strict())
      .meta({ description: "The status the viewer's own API answered each of the drawing's reads with, in the order first read" }),
  })
  .strict()
  .meta({ id: "DrawingAnswer" });

/** What the render page hands the service's browser once the dashboard has settled. */
export const renderPageResult = z.object({
  report: renderReport.omit({ at: true, source: true }),
  height: z.number().int().min(0),
});

export type RenderInput = z.infer<typeof renderInput>;
export type RenderAnswer = z.infer<typeof renderAnswer>;

import { z } from "zod";
import { REVISIONS_LIMIT_DEFAULT, REVISIONS_LIMIT_MAX, SLUG_PATTERN } from "./playground-limits";
import { dataMode, draftWarning } from "./resources";

// The playground's own contract: what an author sends and what comes back. Shared by the
// server, the editor page, /endpoints and llms.txt.

export * from "./playground-limits";

const slugForm = "must be a slug: lowercase letters, digits and hyphens, at most 64 (e.g. \"my-book\")";

export const dashSlug = z
  .string({ error: slugForm })
  .regex(SLUG_PATTERN, slugForm)
  .meta({ description: "Suggested name of the dashboard when a person saves it" });

const positiveRevision = "must be a positive integer: the revision you last read (e.g. 3)";

const baseRevision = z
  .number({ error: positiveRevision })
  .int(positiveRevision)
  .min(1, positiveRevision)
  .meta({ description: "Refuse the update (409 revision_conflict) unless this is the current revision" });

// Refusals name the field and the form it takes in words: an agent fixes what the hint says and
// nothing more, and the validator's own wording ("expected record, received array") says neither.

const DRAFT_FIELDS = "html, scenario, examples, dash, dataMode and baseRevision";
const clipKey = (k: string) => (k.length > 40 ? `${k.slice(0, 40)}…` : k);

/** The refusal of a body that is not an object, or that has fields no draft has. */
const bodyError = (notObject: string) => (issue: z.core.$ZodRawIssue) =>
  issue.code === "unrecognized_keys"
    ? `Unrecognized field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${clipKey(k)}"`).join(", ")}: a draft's fields are ${DRAFT_FIELDS}.`
    : notObject;

const htmlForm = "the dashboard, one self-contained HTML document";
const scenarioName = 'must be a scenario name, a string such as "outage"';
const scenariosListed = "GET /dashboards/playground/scenarios lists them";
const examplesForm = 'must be an object of API path → variant name, e.g. {"/cx/book": "empty"}';
const draftDataMode = z.enum(dataMode.options, { error: 'must be "demo" or "live"' });

const examplesOf = (form: string) =>
  z
    .record(z.string(), z.string({ error: 'must be a variant name, a string such as "empty"' }), { error: form })
    .meta({ description: "API path → demo variant forced over the scenario's, e.g. {\"/cx/book\": \"empty\"}" });
const examplesField = examplesOf(examplesForm);

/** The body of POST /draft (as JSON): a new draft. */
export const draftInput = z
  .object({
    html: z
      .string({ error: (issue) => (issue.input === undefined ? `required: ${htmlForm}, as a string` : `must be a string: ${htmlForm}`) })
      .meta({ description: "The dashboard: one self-contained HTML document" }),
    dataMode: draftDataMode.optional().meta({ description: "`demo` (default) or `live`; fixed at creation" }),
    examples: examplesField.optional(),
    scenario: z.string({ error: `${scenarioName}; ${scenariosListed}` }).optional().meta({ description: "Demo scenario (default `default`)" }),
    dash: dashSlug.optional(),
    baseRevision: baseRevision.optional(),
  }, { error: bodyError('The body must be a JSON object: a draft such as {"html": "<!doctype html>…"}.') })
  .strict()
  .meta({ id: "DraftInput" });

/**
 * The body of POST /draft/<write_token> (as JSON): a partial update. A field present replaces its
 * value, `null` clears it (scenario back to `default`, no forced examples, no dash), and a field
 * left out keeps its value. At least one of html, scenario, examples and dash is sent.
 */
export const draftUpdate = z
  .object({
    html: z
      .string({ error: `must be a string: ${htmlForm}; leave html out to keep the current HTML` })
      .optional()
      .meta({ description: "The new HTML; left out, it stays" }),
    dataMode: draftDataMode.optional().meta({ description: "Fixed at creation: only the draft's own mode is accepted" }),
    examples: examplesOf(`${examplesForm}, or null to force none`).nullable().optional(),
    scenario: z
      .string({ error: `${scenarioName}, or null to go back to "default"; ${scenariosListed}` })
      .nullable()
      .optional()
      .meta({ description: "Demo scenario name; null returns to `default`" }),
    dash: dashSlug.nullable().optional(),
    baseRevision: baseRevision.optional(),
  }, { error: bodyError('The body must be a JSON object of the fields to change, e.g. {"scenario": "outage"}.') })
  .strict()
  .meta({ id: "DraftUpdate" });

export const draftCreated = z
  .object({
    id: z.string().meta({ description: "The read id" }),
    postUrl: z.string().meta({ description: "Carries the secret write token: keep it; never show it to the human" }),
    eventsUrl: z.string(),
    watchUrl: z.string().meta({ description: "Carries only the read id: hand it to the human" }),
    revision: z.number().int(),
    warnings: z.array(draftWarning),
  })
  .meta({ id: "DraftCreated" });

export const draftUpdated = z
  .object({
    id: z.string(),
    revision: z.number().int(),
    warnings: z.array(draftWarning),
    watchUrl: z.string(),
    eventsUrl: z.string(),
  })
  .meta({ id: "DraftUpdated" });

/** GET /draft/<read_id>: the current draft, read-only. */
/** The API paths a dashboard's code reads: shown to a viewer before it runs on their data. */
const draftReads = z
  .object({
    paths: z.array(z.string()).meta({
      description:
        "Path templates relative to the API base (`/crm/users/contacts`, `/crm/:instance/deals`) named in the dashboard's code. On a viewer's live data the broker answers only these.",
    }),
    complete: z.boolean().meta({
      description: "False when the dashboard makes requests whose paths cannot be read from its code; those requests are refused on live data.",
    }),
  })
  .meta({ id: "DraftReads" });

/** POST /check: what the static check finds in a draft body, with nothing created. */
export const draftCheck = z
  .object({
    warnings: z.array(draftWarning),
    reads: draftReads,
  })
  .meta({ id: "DraftCheck" });

export const draftView = z
  .object({
    id: z.string(),
    revision: z.number().int(),
    html: z.string(),
    dataMode,
    scenario: z.string(),
    examples: z.record(z.string(), z.string()),
    dash: z.string().nullable(),
    updatedAt: z.number().meta({ description: "Epoch ms of the latest revision" }),
    warnings: z.array(draftWarning),
    reads: draftReads,
  })
  .meta({ id: "DraftView" });


const revisionsLimitMessage = `must be an integer from 1 to ${REVISIONS_LIMIT_MAX} (e.g. ?limit=20)`;

/** The query of GET /draft/<read_id>/revisions. */
export const draftRevisionsQuery = z
  .object({
    limit: z
      .string()
      .regex(/^\d{1,2}$/, revisionsLimitMessage)
      .transform(Number)
      .pipe(z.number().int().min(1, revisionsLimitMessage).max(REVISIONS_LIMIT_MAX, revisionsLimitMessage))
      .optional()
      .meta({ description: `Revisions per page, 1 to ${REVISIONS_LIMIT_MAX}; default ${REVISIONS_LIMIT_DEFAULT}. A page also stops before 8 MiB of JSON, so it may hold fewer (never none).` }),
    cursor: z.string().max(512).optional().meta({ description: "Opaque cursor from the previous page's `nextCursor`" }),
  })
  .strict();

/** GET /draft/<read_id>/revisions: one page of the kept revisions, newest first. */
export const draftRevisions = z
  .object({
    revisions: z.array(
      z
        .object({
          revision: z.number().int(),
          html: z.string(),
          scenario: z.string(),
          examples: z.record(z.string(), z.string()),
          dash: z.string().nullable(),
          createdAt: z.number().meta({ description: "Epoch ms when this revision was accepted" }),
        })
        .meta({ id: "DraftRevision" }),
    ),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next (older) page; null on the last page" }),
  })
  .meta({ id: "DraftRevisions" });

/** The `data` of each `draft` event on the stream. */
export const draftEvent = z
  .object({
    revision: z.number().int(),
    scenario: z.string(),
    examples: z.record(z.string(), z.string()).meta({ description: "API path → the variant forced over the scenario's" }),
    dash: z.string().nullable(),
    html: z.string(),
  })
  .meta({ id: "DraftEvent" });

export type DraftInput = z.infer<typeof draftInput>;
export type DraftUpdate = z.infer<typeof draftUpdate>;
export type DraftCheck = z.infer<typeof draftCheck>;
export type DraftCreated = z.infer<typeof draftCreated>;
export type DraftUpdated = z.infer<typeof draftUpdated>;
export type DraftView = z.infer<typeof draftView>;
export type DraftEvent = z.infer<typeof draftEvent>;

import type { ErrorCode } from "../errors";
import {
  PLAYGROUND_BASE as base,
  REVISIONS_LIMIT_DEFAULT,
  REVISIONS_LIMIT_MAX,
  REVISIONS_PAGE_BYTES,
  draftCheck,
  draftCreated,
  draftInput,
  draftRevisions,
  draftRevisionsQuery,
  draftUpdate,
  draftUpdated,
  draftView,
} from "../playground";
import { drawingAnswer } from "../renders";
import type { SiteOperationDef } from "./types";

// The playground's drafts: writing, checking, reading and drawing one.

const writeErrors = ["cross_site_write", "untrusted_host", "rate_limited", "unsupported_media_type", "invalid_draft", "unknown_scenario", "unknown_example", "draft_too_large", "internal_error"] as const satisfies readonly ErrorCode[];

export const draftOperations = [
  {
    id: "playground.createDraft",
    method: "POST",
    path: `${base}/draft`,
    summary: "Create a draft",
    section: "playground",
    description: ["Send the draft as JSON, or the HTML itself as `text/html` with the other fields in the query string."],
    errors: writeErrors,
    input: draftInput,
    answer: draftCreated,
    tool: {
      name: "create_draft",
      title: "Create a draft dashboard",
      description:
        "Publish a new draft (revision 1) of ONE self-contained HTML document, on demo data unless dataMode is `live`. Answers postUrl (your write token: keep it) and watchUrl (give it to the human), with the check's `warnings`.",
    },
  },
  {
    id: "playground.checkDraft",
    method: "POST",
    path: `${base}/check`,
    summary: "Check a draft without publishing it",
    section: "playground",
    description: [
      "Takes the same bodies as creating a draft and answers the static check's findings and the API paths the dashboard reads. Nothing is created, stored or sent to any watcher; a blank document is a finding here rather than a refusal. Rate limited like creations, with an allowance of its own.",
    ],
    errors: ["cross_site_write", "rate_limited", "unsupported_media_type", "invalid_draft", "unknown_scenario", "unknown_example", "draft_too_large", "internal_error"],
    input: draftInput,
    answer: draftCheck,
    tool: {
      name: "check_html",
      title: "Check a dashboard without publishing it",
      description: "The static check, publishing nothing: `warnings` (fix `error` and `warning`; `info` is advice) and `reads`, the API paths the code fetches.",
    },
  },
  {
    id: "playground.updateDraft",
    method: "POST",
    path: `${base}/draft/:write_token`,
    summary: "Update a draft (POST to `postUrl`)",
    section: "playground",
    description: ["Re-checks the draft and pushes it to every watcher at once. `write_token` is the last segment of `postUrl`; the read id never authorises a write."],
    errors: [...writeErrors, "no_such_draft", "data_mode_fixed", "revision_conflict"],
    input: draftUpdate,
    answer: draftUpdated,
    tool: {
      name: "update_draft",
      title: "Update a draft",
      description:
        "The next revision of a draft, through its postUrl; watchers see it at once. A field sent replaces its value, null clears it, one left out is kept; baseRevision refuses a stale update.",
    },
  },
  {
    id: "playground.readDraft",
    method: "GET",
    path: `${base}/draft/:read_id`,
    summary: "The current draft, read-only, by its read id",
    section: "playground",
    errors: ["no_such_draft", "rate_limited", "internal_error"],
    answer: draftView,
    tool: {
      name: "read_draft",
      title: "Read a draft as its watchers see it",
      description: "The current revision of a draft by its watchUrl or read id, with its findings and reads.",
    },
  },
  {
    id: "playground.draftRevisions",
    method: "GET",
    path: `${base}/draft/:read_id/revisions`,
    summary: "The draft's kept revisions, newest first, a page at a time",
    section: "playground",
    description: [
      `At most \`limit\` revisions (default ${REVISIONS_LIMIT_DEFAULT}, at most ${REVISIONS_LIMIT_MAX}), and a page stops before ${REVISIONS_PAGE_BYTES / 1024 / 1024} MiB of JSON, so it may hold fewer, but never none. Pass \`nextCursor\` back as \`cursor\` until it is null; a cursor works only for the draft it came from.`,
    ],
    errors: ["no_such_draft", "invalid_query", "invalid_cursor", "rate_limited", "internal_error"],
    query: draftRevisionsQuery,
    answer: draftRevisions,
  },
  {
    id: "playground.drawDraft",
    method: "GET",
    path: `${base}/draft/:read_id/drawn`,
    summary: "A live draft drawn on the signed-in viewer's data (safe view)",
    section: "playground",
    description: [
      "The watch page's safe view of a live draft, for a signed-in watcher who did not write it: the service draws the revision in its own contained browser, its reads answered by `/api` as the viewer on the paths the code names (GET only), and answers what it drew as an inert document, which the page shows in a frame that runs no script. Nothing the draft's code does reaches anything but those answers, so nothing is asked. A drawing is remembered per viewer, draft, revision and viewport while every read it made answers the same (`remembered: true`); one viewer has one drawing of one draft under way at a time, and another asked for meanwhile is `503` `renderer_busy` with `Retry-After`. Demo drafts are refused (`409` `draw_live_only`): their watchers see demo data.",
    ],
    errors: ["unauthorized", "no_such_draft", "no_such_revision", "draw_live_only", "invalid_request", "renderer_not_configured", "renderer_busy", "render_timed_out", "drawing_failed"],
    answer: drawingAnswer,
  },
] as const satisfies readonly SiteOperationDef[];

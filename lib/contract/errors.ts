// The error catalogue: every code the service answers, with its status and meaning.
// Handlers throw `ApiError(code)`; the status always comes from here.

export const errorCatalogue = {
  // Common to the whole API
  unauthorized: { status: 401, description: "Not signed in, or the session has expired." },
  forbidden: { status: 403, description: "Signed in, but not permitted." },
  not_found: { status: 404, description: "No such path under the API base." },
  invalid_path: { status: 400, description: "A path segment's percent-encoding does not decode to UTF-8 text (e.g. `%E0%A4%A`)." },
  method_not_allowed: { status: 405, description: "Every API endpoint is GET; elsewhere, `Allow` names the methods the address takes." },
  invalid_query: { status: 400, description: "A query parameter is malformed; `hint` names it." },
  invalid_cursor: { status: 400, description: "The cursor was not issued by this server." },
  internal_error: { status: 500, description: "An unexpected failure. Nothing about it is disclosed." },
  not_ready: { status: 503, description: "This instance cannot serve yet (storage, migrations or the draft listener); `hint` names which. /readyz answers it." },
  shutting_down: { status: 503, description: "This instance is shutting down; retry, and the proxy sends you to another." },

  // Endpoint-specific, from the interface specification
  no_connection_check: { status: 404, description: "No probe exists for the slug." },
  no_such_instance: { status: 404, description: "Unknown CRM instance; use `customers` or `users`." },
  owner_required: { status: 400, description: "`owner` is required; owner ids come from /cx/owners." },
  tracker_not_connected: { status: 401, description: "The viewer has not connected the issue tracker, or must connect it again; the hint says why." },
  coderepo_not_connected: { status: 401, description: "The viewer has not connected code hosting, or must connect it again; the hint says why." },
  support_not_connected: { status: 401, description: "The viewer has not connected customer messaging, or must connect it again; the hint says why." },
  calls_not_opted_in: { status: 403, description: "The viewer has not opted in to call recordings." },
  calls_donor_not_connected: { status: 409, description: "The shared call-recording credential is not connected, or an admin must connect it again; the hint says why." },
  calls_not_configured: { status: 503, description: "The call-recording connector is not configured." },
  support_not_configured: { status: 503, description: "The customer-messaging connector is not configured." },
  crmportal_not_configured: { status: 503, description: "The CRM portal is not configured." },

  // Upstream failures of outside systems
  tracker_upstream_error: { status: 502, description: "The issue tracker failed or did not answer in time." },
  coderepo_upstream_error: { status: 502, description: "Code hosting failed or did not answer in time." },
  calls_upstream_error: { status: 502, description: "Call recording failed or did not answer in time." },
  support_upstream_error: { status: 502, description: "Customer messaging failed or did not answer in time." },
  crmportal_upstream_error: { status: 502, description: "The CRM portal failed or did not answer in time." },
  no_such_project: { status: 404, description: "The tracker has no project by that id or name; /vendors/tracker/projects lists them." },
  upstream_rate_limited: {
    status: 503,
    description: "An outside system is rate-limiting this deployment's requests for longer than a read waits; `Retry-After` says when to try again.",
  },

  // Playground
  invalid_draft: { status: 400, description: "The draft is not JSON, or a field has the wrong type; `hint` names it." },
  unknown_scenario: { status: 400, description: "No such demo scenario; GET /dashboards/playground/scenarios lists them." },
  unknown_example: { status: 400, description: "No such demo variant for that path (or no such path); see /scenarios." },
  draft_too_large: { status: 413, description: "The draft's html is over 2 MiB." },
  rate_limited: { status: 429, description: "Too many requests; wait for Retry-After seconds." },
  no_such_draft: { status: 404, description: "No draft answers to that id or token." },
  data_mode_fixed: { status: 409, description: "A draft's dataMode is fixed at creation." },
  revision_conflict: { status: 409, description: "baseRevision is not the current revision; `hint` names the current one." },
  no_example: { status: 404, description: "Demo mode has no example for this path." },
  cross_site_write: { status: 403, description: "Browsers may not write to a draft from another site or an opaque origin." },
  invalid_report: { status: 400, description: "The render report is not JSON, or a field is missing, of the wrong type or over its limit; `hint` names it." },
  report_too_large: { status: 413, description: "The render report's body is over 64 KiB." },
  reports_demo_only: {
    status: 409,
    description: "Render reports are kept only for demo-mode drafts: a live draft renders each viewer's own data, which must not flow back to its author.",
  },
  revision_not_recent: { status: 409, description: "Render reports are taken only for the draft's latest 5 revisions; `hint` names them." },
  invalid_render: { status: 400, description: "A render's body is not JSON of the shape it takes; `hint` names the field." },
  no_such_revision: { status: 404, description: "The draft does not keep that revision (pruned from its history, or not made yet); `hint` names the ones it keeps." },
  draw_live_only: {
    status: 409,
    description: "The safe view draws live-data drafts only, on the signed-in viewer's own data: a demo draft reads nothing of anyone's, and its watch page runs it on demo data.",
  },
  render_demo_only: {
    status: 409,
    description: "The service renders demo-mode drafts only: a live draft reads each viewer's own data, and the server has no viewer.",
  },
  renderer_not_configured: {
    status: 503,
    description: "This deployment has no browser to render with (RENDERER_CHROMIUM off, or no Chromium found).",
  },
  renderer_busy: { status: 503, description: "Every render slot and the queue behind them are taken, or your address already holds its share of them, or (the safe view) a drawing of the same dashboard or draft for you is already under way; `Retry-After` says when to try again." },
  render_timed_out: {
    status: 504,
    description: "The dashboard did not finish drawing within the renderer's time limit (a script that never yields stops its page), or it waited on nothing — no request and no work — long enough to be ended early; the service's report of it says which.",
  },
  drawing_failed: {
    status: 502,
    description: "The service drew the dashboard, but what it drew could not be turned into a document safe to show (too large, or malformed); `hint` says which. Make it interactive to run it in your own browser.",
  },
  untrusted_host: {
    status: 400,
    description:
      "The request's Host is not a name this server answers under: loopback names, the address it listens on, PUBLIC_ORIGIN's host and ALLOWED_HOSTS. Checked on every request, so a foreign name resolved to the server (DNS rebinding) reaches nothing.",
  },

  // Saving into a person's space, and their favourites and home
  invalid_slug: { status: 400, description: "A dashboard's slug must match [a-z0-9][a-z0-9-]{0,63}." },
  empty_dashboard: { status: 400, description: "The body is empty; send the dashboard's HTML." },
  invalid_dashboard: { status: 400, description: "The dashboard holds what HTML does not allow (NUL); `hint` says what." },
  dashboard_uses_webrtc: {
    status: 400,
    description: "The dashboard uses WebRTC, which the dashboard frame removes (it could carry data out); `hint` says where.",
  },
  invalid_request: { status: 400, description: "The request body is not what this action takes; `hint` says what." },
  payload_too_large: { status: 413, description: "The body is over the size limit: 2 MiB for a dashboard, 16 KiB for a favourites or home action." },
  snapshot_gone: {
    status: 410,
    description: "The snapshot was revoked by its owner or has expired; what it showed is deleted, and the address stays gone. Its owner can freeze a new one.",
  },

  // Sign-in
  unknown_user: { status: 400, description: "No demo user has that email." },
  invalid_form: { status: 400, description: "The form body could not be read." },
  unsupported_media_type: { status: 415, description: "The request body has the wrong content type." },

  // This deployment's own: a capability that is not available here yet
  tracker_not_configured: { status: 503, description: "The issue-tracker connector is not configured." },
  coderepo_not_configured: { status: 503, description: "The code-hosting connector is not configured." },
  crm_not_synced: { status: 503, description: "No CRM portal sync has completed in this deployment." },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export function statusOf(code: ErrorCode): number {
  return errorCatalogue[code].status;
}

/** A domain failure with a stable code. The wrapper turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, hint?: string, headers?: Record<string, string>) {
    super(hint ? `${code}: ${hint}` : code);
    this.name = "ApiError";
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }

  get status(): number {
    return statusOf(this.code);
  }
}

// The playground's addresses and limits, apart from its schemas (playground.ts): the editor and
// the frame read these as the page loads, and the schemas are loaded only when an answer needs
// parsing.

export const PLAYGROUND_BASE = "/dashboards/playground";
export const PLAYGROUND_API_BASE = `${PLAYGROUND_BASE}/api`;
/** The demo API's own query parameters: a scenario or one path's variant for one request; the API schemas never see them. */
export const SCENARIO_PARAM = "scenario";
export const VARIANT_PARAM = "variant";
export const DRAFT_HTML_MAX_BYTES = 2 * 1024 * 1024;

/** A dashboard's name in a space: a draft's `dash` and the slug it is saved under. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const REVISIONS_LIMIT_DEFAULT = 10;
export const REVISIONS_LIMIT_MAX = 50;
/** A page of revisions stops short of this many bytes of JSON (it always holds at least one revision). */
export const REVISIONS_PAGE_BYTES = 8 * 1024 * 1024;

// The bounds of a dashboard's page parameters (`?p.<name>=<value>`, lib/frame/params.ts), here
// so the contract's render and report schemas hold parameters to the same numbers.

/** Names a dashboard may be given: lower-case, as JavaScript identifiers and URL keys alike read. */
export const DASHBOARD_PARAM_NAME = /^[a-z][a-z0-9_]{0,31}$/;
/** The longest value passed on, in UTF-16 code units (a date range, a list of ids). */
export const DASHBOARD_PARAM_VALUE_MAX = 200;
/** The most parameters one dashboard is given. */
export const DASHBOARD_PARAMS_MAX = 20;

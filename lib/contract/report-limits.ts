// The numbers that bound a render report, apart from its schema (reports.ts): the host pages
// bound what they send by them as they load, the server parses with the schema.

/**
 * Reports kept per revision. When more arrive, a report with errors is kept over one without,
 * then the draft's author (its write link) over a watcher, then the newer over the older: a clean
 * report never pushes out one that found errors.
 */
export const REPORTS_PER_REVISION = 10;
/** Reports kept per revision from one source (one watcher's address, or the author): more from it push out its own. */
export const REPORTS_PER_SOURCE = 3;
/** Reports are taken, and kept, for this many of a draft's latest revisions. */
export const REPORT_REVISIONS = 5;

export const REPORT_ERRORS_MAX = 20;
export const REPORT_CONSOLE_MAX = 30;
export const REPORT_REFUSALS_MAX = 30;
export const REPORT_REQUESTS_MAX = 100;
/** Characters of one error or console message. */
export const REPORT_MESSAGE_MAX = 500;
/** Characters of a request's path (query included) and of a refusal's reason. */
export const REPORT_PATH_MAX = 300;
export const REPORT_REASON_MAX = 300;
/** Characters of every text field of one report together. */
export const REPORT_TEXT_MAX = 12_000;
/**
 * Bytes of a report's JSON body. Text fields hold no control characters but tab and newline, so
 * each character costs at most 3 bytes: 36 KB of text and the entries' structure fit.
 */
export const REPORT_BODY_MAX_BYTES = 64 * 1024;
/**
 * A host sends its report once the dashboard's requests have all been answered and nothing new
 * was asked for this long, and the frame has painted; or, at the latest, this long after the
 * dashboard started.
 */
export const REPORT_QUIET_MS = 500;
export const REPORT_WAIT_MAX_MS = 10_000;

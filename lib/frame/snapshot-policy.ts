import { SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_PANELS_SHOWN, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "./snapshot";

// The snapshot policy, said once: /endpoints, llms.txt, llms-full.txt and /docs all quote these
// sentences, so no page can tell an agent a different rule. Plain text with Markdown code spans.

/** The element, and what its time may be. */
export const snapshotElement =
  `Embed it as \`<script type="application/json" id="${SNAPSHOT_ELEMENT_ID}" ${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="2026-11-20T06:00:00Z">{…}</script>\`, ` +
  `where \`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}\` is an ISO-8601 date (\`2026-11-20\`) or a date and time with \`Z\` or an offset. A dashboard with only a snapshot needs no API at all.`;

/** Which answers fall back, and which never do. */
export const snapshotWhen =
  "A dashboard that fetches falls back to its snapshot only when live data cannot be had for now: the request failed on the network, or the answer is a 5xx " +
  "other than a system not set up or synced here (500 `internal_error`, 502 `<vendor>_upstream_error`, 503 `upstream_rate_limited`, `not_ready` or `shutting_down`). " +
  "Never for 401 or 403 (this viewer may not see the data: signed out, no permission, not connected, not opted in), never for a 503 `*_not_configured` or `crm_not_synced` " +
  "(that system never had data in this deployment to keep), and never for other 4xx answers or `waitingOn`: those are states to show.";

/** The helper, per panel, and what the viewer is told. */
export const snapshotHelper =
  `Fall back by calling \`window.${SNAPSHOT_HELPER}(panel)\` with the name of the panel that shows the snapshot (no argument when the whole dashboard does). ` +
  "It answers `{data, takenAt}` (null when there is no snapshot or it is not JSON; `takenAt` null when the time is missing or not ISO-8601) and makes the page above the frame say " +
  `"Showing snapshot data from <time> in <panels>; the rest is live" (up to ${SNAPSHOT_PANELS_SHOWN} panel names, then a count), or "Showing snapshot data from <time>" for the whole dashboard. ` +
  "Say on the panel itself why live data is missing, too. Outside the dashboard frame the function does not exist; read the element directly there.";

/** What a live viewer of a saved dashboard sees: the author's figures, not theirs. */
export const snapshotLiveViewer =
  "The snapshot is the author's data as it was when embedded: a snapshot taken while drafting on demo data holds demo figures, and a live viewer of the saved dashboard who meets an outage " +
  "sees those figures under the page's notice. Embed a snapshot of data every viewer may see, taken from live data, or none; label a demo snapshot as such on the panel.";

/** The static check's part. */
export const snapshotChecks =
  "The static check warns of a snapshot without a usable time (`snapshot-undated`), of a call to the helper with no snapshot to read (`snapshot-helper-without-snapshot`), " +
  "and of a fetching dashboard that embeds a snapshot but never calls the helper, so the page could not say the figures are not live (`snapshot-unannounced`).";

/** The whole policy, in one paragraph. */
export const snapshotPolicy = [snapshotElement, snapshotWhen, snapshotHelper, snapshotLiveViewer, snapshotChecks].join(" ");

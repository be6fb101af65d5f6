import { home } from "../resources";
import { SNAPSHOT_DAYS_DEFAULT, SNAPSHOT_DAYS_MAX } from "../snapshots";
import type { ErrorCode } from "../errors";
import type { SiteOperationDef } from "./types";

// The signed-in person's own operations: saving into their space, favourites, home, trust and
// snapshots. Their bodies are the domain's (lib/saved/actions.ts), which the reference reads.

const accountErrors = ["unauthorized", "forbidden", "invalid_request", "payload_too_large", "unsupported_media_type", "method_not_allowed"] as const satisfies readonly ErrorCode[];

export const savingOperations = [
  {
    id: "saving.save",
    method: "POST",
    path: "/~/:handle/:slug",
    summary: "Save a dashboard into your own space",
    section: "saving",
    description: ["The body is the dashboard: one HTML document, `Content-Type: text/html`."],
    errors: ["unauthorized", "forbidden", "invalid_slug", "empty_dashboard", "invalid_dashboard", "dashboard_uses_webrtc", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
  },
  {
    id: "saving.show",
    method: "GET",
    path: "/~/:handle/:slug",
    summary: "Show a saved dashboard",
    section: "saving",
    description: [
      "Any signed-in person may open it; it runs in the sandboxed frame with `DASHBOARD_API_BASE = '/api'`, so each viewer sees their own data. Signed-out visitors are sent to sign in and back. `?revision=N` shows an earlier revision; `/~/<handle>/<slug>/source[?revision=N]` answers the HTML as plain text.",
    ],
    errors: [],
  },
  {
    id: "saving.list",
    method: "GET",
    path: "/~/:handle",
    summary: "List a space's saved dashboards",
    section: "saving",
    description: ["Newest first. Any signed-in person may open it; signed-out visitors are sent to sign in."],
    errors: [],
  },
  {
    id: "saving.favourites",
    method: "POST",
    path: "/account/favourites",
    summary: "Star, unstar or reorder favourites",
    section: "saving",
    description: ["What `/me/favourites` answers, in render order. Sent by the saved dashboard's star button and the start page's list."],
    errors: accountErrors,
  },
  {
    id: "saving.home",
    method: "POST",
    path: "/account/home",
    summary: "Set or clear the home page",
    section: "saving",
    description: ["What `/me/home` answers; `/` opens it (`/?start` still shows the start page)."],
    errors: accountErrors,
    answer: home,
  },
  {
    id: "saving.trust",
    method: "POST",
    path: "/account/trust",
    summary: "Always run an author's dashboards on your data, or stop",
    section: "saving",
    description: [
      "A dashboard someone else wrote opens drawn by this site on your data (its code never runs in your browser); made interactive, it runs on your live data only after you agree, on a screen that names its author and the API paths it reads, and then reads only those paths. `add` runs every dashboard in the author's space interactively with no step; `remove` brings back the drawn view and the question. Sent by the saved dashboard's \"Always trust\" button and the lists on `/connections` and your space.",
    ],
    errors: accountErrors,
  },
  {
    id: "saving.snapshot",
    method: "POST",
    path: "/account/snapshots",
    summary: "Freeze one of your saved dashboards as a snapshot, share it or revoke it",
    section: "saving",
    description: [
      `\`create\` draws one of your own saved dashboards on your data, as the safe view draws someone else's (in the service's browser, reading only the paths its code names), and keeps that drawing at an address nobody can guess. It is private to you until you \`share\` it with anyone signed in (\`signed_in\`) or anyone holding the address (\`link\`); it expires after \`expiresInDays\` (${SNAPSHOT_DAYS_DEFAULT} unless you say, ${SNAPSHOT_DAYS_MAX} at most), and \`revoke\` ends it sooner. An ended snapshot's drawing is deleted and its address answers 410 \`snapshot_gone\`.`,
      "A human action, like saving: only your browser at this site's own pages can make, share or revoke one. A bearer token, an MCP call or another site's form is refused. Sent by \"Freeze a snapshot\" on your saved dashboard and the Share and Revoke buttons on the snapshot and on `/account`; a form post is answered with a redirect (to the new snapshot, or to `next`).",
    ],
    errors: ["unauthorized", "forbidden", "not_found", "snapshot_gone", "invalid_request", "renderer_busy", "render_timed_out", "drawing_failed", "renderer_not_configured", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
  },
  {
    id: "saving.snapshotShow",
    method: "GET",
    path: "/snapshots/:token",
    summary: "Open a snapshot",
    section: "saving",
    description: [
      "A browser (`Accept: text/html`) gets a page showing the drawing in a frame that may run no script, under a policy that allows nothing but inline styles and `data:` images; the page itself has no script. It says whose data it was drawn on, when, and when it expires, and runs no code and reads nobody's data when opened. Anything else gets JSON. Whoever may not open it (signed out for a `signed_in` snapshot, anyone but its owner for a `private` one) gets 404, as for an address that never was.",
    ],
    errors: ["not_found", "snapshot_gone"],
  },
  {
    id: "saving.snapshotPicture",
    method: "GET",
    path: "/snapshots/:token/picture.png",
    summary: "A snapshot's picture, as PNG",
    section: "saving",
    description: [
      "The snapshot's drawing as a PNG at the width it was drawn at, made when it was frozen from the stored document itself (no script ran), as an attachment: the snapshot page's \"Download picture\". The same people may fetch it as may open the snapshot, on the same terms (404, 410); only this site's pages may show it (`Cross-Origin-Resource-Policy: same-origin`). A snapshot frozen while no picture could be made (`picture: false`) answers 404.",
    ],
    errors: ["not_found", "snapshot_gone"],
  },
] as const satisfies readonly SiteOperationDef[];

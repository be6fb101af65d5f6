import { PLAYGROUND_API_BASE } from "@/lib/contract/playground-limits";
import { REPORT_MESSAGE_MAX, REPORT_PATH_MAX, REPORT_REASON_MAX } from "@/lib/contract/report-limits";
import { LINK_URL_MAX } from "./links";
import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX, DASHBOARD_PARAMS_MAX } from "./params";
import { BROKER_PATH_MAX, FRAME_HEIGHT_MAX, HEIGHT_NOTICE_MS, SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_PANEL_SENT_MAX, SNAPSHOT_TAKEN_AT_ATTRIBUTE, SNAPSHOT_TIME } from "./protocol";
import type { FrameConfig } from "./scripts/config";
import { FRAME_SCRIPT } from "./scripts.generated";

// The document the sandboxed dashboard frame loads first: its headers, and the frame's script
// with the bounds it shares with the host. The script is TypeScript for the browser in
// lib/frame/scripts/ (frame.ts says what it does: the init message, the fetch shim over the
// MessagePort, the containment, the snapshot helper, the render report, the height and scroll
// notices); scripts/frame-scripts.mjs compiles it into scripts.generated.ts.

export const FRAME_PATH = "/dashboards/frame";

/** The Trusted Types policies the bootstrap creates (scripts/containment.ts); the CSP allows no others, and no second of each. */
const TRUSTED_TYPES_POLICIES = ["default", "dashboard-bootstrap"] as const;

export const FRAME_CSP = [
  "sandbox allow-scripts",
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src data: blob:",
  "font-src data:",
  "connect-src 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "manifest-src 'none'",
  "media-src 'none'",
  "object-src 'none'",
  // Every HTML string the dashboard turns into markup passes the bootstrap's default policy,
  // which takes frames and http-equiv out of it (scripts/containment.ts).
  "require-trusted-types-for 'script'",
  `trusted-types ${TRUSTED_TYPES_POLICIES.join(" ")}`,
].join("; ");

const FRAME_PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "encrypted-media=()",
  "fullscreen=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "picture-in-picture=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

export const FRAME_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": FRAME_CSP,
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": FRAME_PERMISSIONS_POLICY,
  "x-dns-prefetch-control": "off",
};

/** Notices of each kind (error, console.error, refusal) one dashboard document sends at most. */
export const RENDER_NOTICES_MAX = 200;
/** console.log, info, warn, debug and table lines one dashboard document sends at most. */
export const CONSOLE_LINES_MAX = 500;

/** What the frame's script is called with. */
const FRAME_CONFIG: FrameConfig = {
  heightMax: FRAME_HEIGHT_MAX,
  heightNoticeMs: HEIGHT_NOTICE_MS,
  pathMax: BROKER_PATH_MAX,
  // How long a read may take before the dashboard's fetch rejects.
  fetchTimeoutMs: 30_000,
  scrollNoticeMs: 200,
  // Restoring the scroll position keeps trying while the dashboard is still laying out.
  scrollRestoreMs: 3_000,
  snapshot: { elementId: SNAPSHOT_ELEMENT_ID, takenAtAttribute: SNAPSHOT_TAKEN_AT_ATTRIBUTE, time: SNAPSHOT_TIME.source, panelMax: SNAPSHOT_PANEL_SENT_MAX, helper: SNAPSHOT_HELPER },
  linkMax: LINK_URL_MAX,
  messageMax: REPORT_MESSAGE_MAX,
  reportPathMax: REPORT_PATH_MAX,
  reasonMax: REPORT_REASON_MAX,
  noticesMax: RENDER_NOTICES_MAX,
  linesMax: CONSOLE_LINES_MAX,
  params: { name: DASHBOARD_PARAM_NAME.source, nameFlags: DASHBOARD_PARAM_NAME.flags, valueMax: DASHBOARD_PARAM_VALUE_MAX, max: DASHBOARD_PARAMS_MAX },
  demoApiBase: PLAYGROUND_API_BASE,
};

/**
 * The script element's text: the compiled function called with its settings. The settings are
 * JSON with every `<` escaped, so no value can end the element or open a comment in it.
 */
const SCRIPT = FRAME_SCRIPT + "(" + JSON.stringify(FRAME_CONFIG).replace(/</g, "\\u003c") + ");";

/** The frame's first document: nothing but the bootstrap script. */
export function bootstrapHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Dashboard</title></head><body><script>${SCRIPT}</script></body></html>`;
}

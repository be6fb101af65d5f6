import { BROKER_PATH_MAX, SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE, SNAPSHOT_TIME } from "./protocol";

// The document the sandboxed dashboard frame loads first. It waits for the host page's init
// message, installs the fetch shim that talks to the broker over the MessagePort, then replaces
// itself with the dashboard via document.open/write. document.open keeps the same Window, so the
// shim and the response's CSP stay in force for the dashboard.
//
// Snapshot fallback: a dashboard may embed its data as
//   <script type="application/json" id="dashboard-snapshot" data-taken-at="2026-11-20T09:00:00Z">…</script>
// and call window.dashboardSnapshot() when it falls back to it. The helper answers
// {data, takenAt} (or null when there is no parsable snapshot) and tells the host page, which
// then says above the frame that snapshot data is shown, and from when.
//
// The port lives only in closures. Dashboard code shares this window and may still reach it
// (by patching prototypes before a message arrives, say); that gives it nothing, because the
// host re-checks every request it relays.

export const FRAME_PATH = "/dashboards/frame";

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
].join("; ");

export const FRAME_PERMISSIONS_POLICY = [
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

/** How long a read may take before the dashboard's fetch rejects. */
const FETCH_TIMEOUT_MS = 30_000;
/** Scroll notices at most this often. */
const SCROLL_NOTICE_MS = 200;
/** Restoring the scroll position keeps trying while the dashboard is still laying out. */
const SCROLL_RESTORE_MS = 3_000;

// Plain ES2017 so it runs as written; no template placeholders other than the constants.
const script = String.raw`(function () {
  "use strict";
  if (window.parent === window) return;
  var parentWindow = window.parent;
  var P = Promise, R = Response, H = Headers, TE = TypeError, DE = typeof DOMException === "function" ? DOMException : Error;
  var setT = setTimeout.bind(window), clearT = clearTimeout.bind(window);
  var addListener = EventTarget.prototype.addEventListener, removeListener = EventTarget.prototype.removeEventListener;
  var PATH_MAX = ${BROKER_PATH_MAX}, TIMEOUT = ${FETCH_TIMEOUT_MS}, SCROLL_MS = ${SCROLL_NOTICE_MS}, RESTORE_MS = ${SCROLL_RESTORE_MS};
  var SNAP_ID = ${JSON.stringify(SNAPSHOT_ELEMENT_ID)}, SNAP_AT = ${JSON.stringify(SNAPSHOT_TAKEN_AT_ATTRIBUTE)}, SNAP_TIME = new RegExp(${JSON.stringify(SNAPSHOT_TIME.source)});
  var parseJson = JSON.parse, dateParse = Date.parse, dateUTC = Date.UTC, D = Date;

  function onMessage(event) {
    if (event.source !== parentWindow) return;
    var data = event.data, port = event.ports && event.ports[0];
    if (!port || !data || data.type !== "init" || typeof data.html !== "string" || typeof data.apiBase !== "string") return;
    removeListener.call(window, "message", onMessage);
    start(port, data);
  }
  addListener.call(window, "message", onMessage);

  function start(port, init) {
    var send = port.postMessage.bind(port);
    var pending = new Map();
    var nextId = 1;
    var origin = location.origin;

    port.onmessage = function (event) {
      var m = event.data;
      if (!m || m.type !== "response" || typeof m.id !== "number") return;
      var p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      p.settle(m);
    };

    function urlOf(input) {
      var raw = typeof input === "string" ? input : input instanceof URL ? input.href : input && typeof input.url === "string" ? input.url : String(input);
      // Request and URL objects come back absolute against this document's address; the broker
      // only relays paths, so the frame's own origin is taken off again here.
      if (origin !== "null" && raw.indexOf(origin + "/") === 0) raw = raw.slice(origin.length);
      return raw;
    }

    function shimFetch(input, options) {
      var method = (options && options.method) || (input && typeof input === "object" && typeof input.method === "string" ? input.method : "GET");
      method = String(method).toUpperCase();
      if (method !== "GET" && method !== "HEAD") {
        return P.reject(new TE("Dashboards only read data: fetch with " + method + " is not allowed."));
      }
      var path = urlOf(input);
      if (path.length > PATH_MAX) return P.reject(new TE("The request URL is too long."));
      var signal = options && options.signal;
      if (signal && signal.aborted) return P.reject(new DE("The operation was aborted.", "AbortError"));
      var headers = {};
      try {
        new H((options && options.headers) || undefined).forEach(function (v, k) { headers[k] = v; });
      } catch (e) {
        return P.reject(e);
      }
      var id = nextId++;
      return new P(function (resolve, reject) {
        var timer = setT(function () { done(); reject(new TE("The dashboard API did not answer in time.")); }, TIMEOUT);
        function onAbort() { done(); reject(new DE("The operation was aborted.", "AbortError")); }
        function done() {
          pending.delete(id);
          clearT(timer);
          if (signal) removeListener.call(signal, "abort", onAbort);
        }
        if (signal) addListener.call(signal, "abort", onAbort);
        pending.set(id, {
          settle: function (m) {
            done();
            try {
              var status = m.status | 0;
              var nullBody = status === 204 || status === 205 || status === 304 || method === "HEAD";
              resolve(new R(nullBody ? null : String(m.body), { status: status, headers: m.headers || {} }));
            } catch (e) {
              reject(new TE("The dashboard API sent an unreadable answer."));
            }
          },
        });
        send({ type: "fetch", id: id, method: method, path: path, headers: headers });
      });
    }

    // The same rule as isSnapshotTime in protocol.ts, so the host never drops what this sends.
    function snapshotTime(v) {
      if (typeof v !== "string" || !SNAP_TIME.test(v) || !isFinite(dateParse(v))) return null;
      var y = +v.slice(0, 4), m = +v.slice(5, 7), d = +v.slice(8, 10);
      var day = new D(dateUTC(y, m - 1, d));
      return day.getUTCFullYear() === y && day.getUTCMonth() + 1 === m && day.getUTCDate() === d ? v : null;
    }

    function dashboardSnapshot() {
      var el = document.getElementById(SNAP_ID);
      if (!el) return null;
      var data;
      try {
        data = parseJson(el.textContent || "");
      } catch (e) {
        return null;
      }
      var takenAt = snapshotTime(el.getAttribute(SNAP_AT));
      send(takenAt ? { type: "snapshot", takenAt: takenAt } : { type: "snapshot" });
      return { data: data, takenAt: takenAt };
    }

    Object.defineProperty(window, "fetch", { value: shimFetch, writable: true, configurable: true });
    Object.defineProperty(window, ${JSON.stringify(SNAPSHOT_HELPER)}, { value: dashboardSnapshot, writable: true, configurable: true });
    window.DASHBOARD_API_BASE = init.apiBase;

    document.open();
    document.write(init.html);
    document.close();

    // document.open dropped every window listener, so these go on after it.
    var userScrolled = false;
    var lastSent = -1, timer = 0;
    function notice() {
      timer = 0;
      var y = Math.max(0, Math.round(window.scrollY || 0));
      if (y !== lastSent) { lastSent = y; send({ type: "scroll", y: y }); }
    }
    addListener.call(window, "scroll", function () {
      if (!timer) timer = setT(notice, SCROLL_MS);
    }, { passive: true });
    ["wheel", "touchmove", "keydown", "pointerdown"].forEach(function (t) {
      addListener.call(window, t, function () { userScrolled = true; }, { passive: true, capture: true });
    });

    var target = typeof init.scroll === "number" && init.scroll > 0 ? init.scroll : 0;
    if (target > 0) {
      var until = Date.now() + RESTORE_MS;
      var restore = function () {
        // Once the reader scrolls, their position wins over the restored one.
        if (userScrolled) return;
        window.scrollTo(0, target);
        if (Math.abs((window.scrollY || 0) - target) > 1 && Date.now() < until) setT(restore, 100);
      };
      restore();
    }
  }
})();`;

/** The frame's first document: nothing but the bootstrap script. */
export function bootstrapHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Dashboard</title></head><body><script>${script}</script></body></html>`;
}

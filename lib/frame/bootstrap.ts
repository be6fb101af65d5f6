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

/** The Trusted Types policies the bootstrap creates; the CSP allows no others, and no second of each. */
const TRUSTED_TYPES_POLICIES = ["default", "dashboard-bootstrap"] as const;

/**
 * Globals the bootstrap deletes before the dashboard runs: WebRTC, which CSP does not govern
 * (a peer connection sends STUN to any address and port the page names, with a USERNAME it
 * chose), and XSLT, which could build a frame element out of markup no string check sees.
 */
export const REMOVED_GLOBALS = /^(?:webkit|moz)?RTC[A-Z]|^XSLTProcessor$/;

/**
 * Elements a dashboard may not create: each would give it a child document, a realm of its own
 * where none of the bootstrap's containment applies (a srcdoc frame runs scripts, with
 * WebRTC, in a new opaque origin the bootstrap cannot reach), or a meta refresh navigation.
 * In markup they are renamed `x-blocked-<name>`, harmless unknown elements.
 */
export const BLOCKED_ELEMENTS = ["iframe", "frame", "frameset", "object", "embed", "fencedframe", "portal", "meta"] as const;

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
  // which takes frames and http-equiv out of it (see "Containment" in the script below).
  "require-trusted-types-for 'script'",
  `trusted-types ${TRUSTED_TYPES_POLICIES.join(" ")}`,
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

// Containment, before any dashboard code runs. What CSP cannot govern, the bootstrap takes out
// of reach:
// - WebRTC: every RTC* constructor is deleted from the window (REMOVED_GLOBALS).
// - Child realms: a child frame would be a new window with WebRTC back in it. An about:blank
//   child of this sandboxed document gets a new opaque origin of its own, so it cannot be
//   reached or neutered from here, and it runs nothing unless it is given a srcdoc; frame-src
//   'none' does not stop srcdoc. So no frame element may exist at all: the Trusted Types
//   default policy renames frame-like tags in every HTML string (innerHTML, outerHTML,
//   insertAdjacentHTML, document.write, DOMParser, createContextualFragment, setHTMLUnsafe,
//   srcdoc) and refuses XML entity declarations (which could spell a tag no string check
//   sees); createElement/createElementNS and customized built-ins refuse those names; the
//   dashboard's own markup gets the same renaming before it is written.
// - Navigations the dashboard starts by markup or events (links, SVG links, window.open with
//   _self, document.open with three arguments, meta refresh): refused before they start.
//   location.* assignments cannot be intercepted (Location is unforgeable and the Navigation
//   API's events are disabled in an opaque origin): they remain, see docs/architecture.md.
const containment = String.raw`
  // Dashboard code runs in this window and may patch any built-in before it next writes
  // markup, so every built-in the guards use is taken now, and called without a lookup.
  var uncurry = Function.prototype.bind.bind(Function.prototype.call);
  var apply = Reflect.apply, defineProp = Object.defineProperty, getNames = Object.getOwnPropertyNames, TypeErr = TypeError, Str = String;
  var rxExec = uncurry(RegExp.prototype.exec), strReplace = uncurry(String.prototype.replace);
  var strLower = uncurry(String.prototype.toLowerCase), strIndexOf = uncurry(String.prototype.indexOf), strCharAt = uncurry(String.prototype.charAt);
  var rxReplaceSym = RegExp.prototype[Symbol.replace], origExec = RegExp.prototype.exec;
  // A regular expression whose replace and exec no later patch of RegExp.prototype can reach.
  function fixed(source, flags) {
    var re = new RegExp(source, flags);
    defineProp(re, "exec", { value: origExec });
    defineProp(re, "flags", { value: flags });
    defineProp(re, "global", { value: flags.indexOf("g") !== -1 });
    defineProp(re, "unicode", { value: false });
    defineProp(re, "unicodeSets", { value: false });
    defineProp(re, Symbol.replace, { value: rxReplaceSym });
    return re;
  }
  function matches(re, s) {
    re.lastIndex = 0;
    return rxExec(re, s) !== null;
  }
  function replaceAll(s, re, by) {
    re.lastIndex = 0;
    return strReplace(s, re, by);
  }

  var BLOCKED = ${JSON.stringify(BLOCKED_ELEMENTS)};
  var BLOCKED_NAME = fixed("^(?:[^:]*:)?(?:" + BLOCKED.join("|") + ")$", "i");
  var FRAME_TAGS = fixed("<(\\/?)((?:[^\\t\\n\\f\\r \\/>:<]*:)?)(i?frame(?:set)?|object|embed|fencedframe|portal)(?=[\\t\\n\\f\\r \\/>]|$)", "gi");
  var META_TAGS = fixed("<(\\/?)((?:[^\\t\\n\\f\\r \\/>:<]*:)?)(meta)(?=[\\t\\n\\f\\r \\/>]|$)", "gi");
  var PARTIAL_TAG = fixed("<\\/?(?:[^\\t\\n\\f\\r \\/><:]*:)?([^\\t\\n\\f\\r \\/><:]*)$", "");
  var ENTITY = fixed("<!ENTITY", "i"), HTTP_EQUIV = fixed("http-equiv", "i"), SRCDOC = fixed("srcdoc", "i"), WRITE = fixed("^Document write", "");
  var INSERT_HTML = fixed("^insertHTML$", "i");
  var REMOVED = fixed(${JSON.stringify(REMOVED_GLOBALS.source)}, "");

  var names = getNames(window);
  for (var i = 0; i < names.length; i++) {
    if (matches(REMOVED, names[i])) {
      try { delete window[names[i]]; } catch (e) {}
    }
  }

  function refuse(what) {
    throw new TypeErr("Dashboards cannot " + what + ": the frame allows no child frames, WebRTC or navigation away.");
  }

  // Renames frame-like elements (and meta, when an http-equiv could be in play) in markup. An
  // XML entity declaration matters only where markup may be parsed as XML (DOMParser), so the
  // dashboard's own HTML may mention one.
  function neutralise(html, strict) {
    var s = Str(html);
    if (strict && matches(ENTITY, s)) refuse("declare XML entities");
    s = replaceAll(s, FRAME_TAGS, "<$1$2x-blocked-$3");
    if (matches(HTTP_EQUIV, s)) s = replaceAll(s, META_TAGS, "<$1$2x-blocked-$3");
    return s;
  }

  // A document.write chunk ending inside a tag name that could grow into a blocked one in the
  // next chunk ("<ifr" + "ame>") is refused: the renaming sees one chunk at a time.
  function partialTag(s) {
    PARTIAL_TAG.lastIndex = 0;
    var m = rxExec(PARTIAL_TAG, s);
    if (m === null) return false;
    var name = strLower(m[1]);
    for (var i = 0; i < BLOCKED.length; i++) if (strIndexOf(BLOCKED[i], name) === 0) return true;
    return false;
  }

  var tt = window.trustedTypes, bootstrapPolicy = null;
  if (tt && typeof tt.createPolicy === "function") {
    tt.createPolicy("default", {
      createHTML: function (html, type, sink) {
        var where = Str(sink);
        if (matches(SRCDOC, where)) refuse("give a frame a srcdoc");
        var s = neutralise(html, true);
        if (matches(WRITE, where) && partialTag(s)) refuse("write part of a tag name");
        return s;
      },
      // Scripts and script URLs stay governed by the CSP alone, as before.
      createScript: function (s) { return s; },
      createScriptURL: function (s) { return s; },
    });
    bootstrapPolicy = tt.createPolicy("dashboard-bootstrap", { createHTML: function (s) { return s; } });
  }
  function bootstrapMarkup(html) {
    var s = neutralise(html);
    return bootstrapPolicy ? bootstrapPolicy.createHTML(s) : s;
  }

  function replaceMethod(proto, key, wrap) {
    var original = proto && proto[key];
    if (typeof original !== "function") return;
    defineProp(proto, key, { value: wrap(original), writable: true, configurable: true });
  }
  if (typeof Document === "function") {
    replaceMethod(Document.prototype, "createElement", function (original) {
      return function (name, options) {
        var n = Str(name);
        if (matches(BLOCKED_NAME, n)) refuse("create <" + n + "> elements");
        return apply(original, this, [n, options]);
      };
    });
    replaceMethod(Document.prototype, "createElementNS", function (original) {
      return function (ns, name, options) {
        var n = Str(name);
        if (matches(BLOCKED_NAME, n)) refuse("create <" + n + "> elements");
        return apply(original, this, [ns, n, options]);
      };
    });
    replaceMethod(Document.prototype, "execCommand", function (original) {
      return function (command, ui, value) {
        var c = Str(command);
        return apply(original, this, matches(INSERT_HTML, c) ? [c, ui, neutralise(value, true)] : [c, ui, value]);
      };
    });
  }
  if (typeof CustomElementRegistry === "function") {
    replaceMethod(CustomElementRegistry.prototype, "define", function (original) {
      return function (name, ctor, options) {
        var ext = options ? options.extends : undefined;
        if (ext === undefined) return apply(original, this, [name, ctor]);
        ext = Str(ext);
        if (matches(BLOCKED_NAME, ext)) refuse("extend <" + ext + ">");
        return apply(original, this, [name, ctor, { extends: ext }]);
      };
    });
  }

  // Navigations by markup or events. A click on a link (HTML, SVG or area) that would leave the
  // document is cancelled before its default action; window.open and navigation.navigate are
  // gone. document.open() drops every listener, so the guard is put back after each.
  var addL = uncurry(EventTarget.prototype.addEventListener);
  var composedPath = typeof Event === "function" ? uncurry(Event.prototype.composedPath) : null;
  var preventDefault = typeof Event === "function" ? uncurry(Event.prototype.preventDefault) : null;
  var ElementProto = typeof Element === "function" ? Element.prototype : null;
  var getAttr = ElementProto ? uncurry(ElementProto.getAttribute) : null;
  var localNameOf = ElementProto ? uncurry(Object.getOwnPropertyDescriptor(ElementProto, "localName").get) : null;
  var isElement = function (x) { try { localNameOf(x); return true; } catch (e) { return false; } };
  function onClick(event) {
    var path = composedPath(event);
    for (var i = 0; i < path.length; i++) {
      var el = path[i];
      if (!isElement(el)) continue;
      var tag = localNameOf(el);
      if (tag !== "a" && tag !== "area") continue;
      var href = getAttr(el, "href");
      if (href === null) href = getAttr(el, "xlink:href");
      if (href === null) continue;
      if (strCharAt(href, 0) === "#") return;
      preventDefault(event);
      return;
    }
  }
  function guardNavigation() {
    if (!composedPath) return;
    addL(window, "click", onClick, true);
    addL(window, "auxclick", onClick, true);
  }
  // A dispatched click that is not cancelable still follows an SVG link: such events are refused.
  if (typeof Event === "function") {
    var typeOf = uncurry(Object.getOwnPropertyDescriptor(Event.prototype, "type").get);
    var cancelableOf = uncurry(Object.getOwnPropertyDescriptor(Event.prototype, "cancelable").get);
    replaceMethod(EventTarget.prototype, "dispatchEvent", function (original) {
      return function (event) {
        var type = typeOf(event);
        if ((type === "click" || type === "auxclick" || type === "DOMActivate") && !cancelableOf(event)) refuse("dispatch a click that cannot be cancelled");
        return apply(original, this, [event]);
      };
    });
  }
  defineProp(window, "open", { value: function () { return null; }, writable: true, configurable: true });
  try { defineProp(window, "navigation", { value: undefined, writable: true, configurable: true }); } catch (e) {}
  if (typeof Document === "function") {
    ["open", "write", "writeln"].forEach(function (key) {
      replaceMethod(Document.prototype, key, function (original) {
        return function () {
          if (key === "open" && arguments.length >= 3) return null;
          var result = apply(original, this, arguments);
          if (this === document) guardNavigation();
          return result;
        };
      });
    });
  }
`;

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
${containment}

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
    guardNavigation();
    document.write(bootstrapMarkup(init.html));
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

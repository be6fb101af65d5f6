import { PLAYGROUND_API_BASE } from "@/lib/contract/playground-limits";
import { REPORT_MESSAGE_MAX, REPORT_PATH_MAX, REPORT_REASON_MAX } from "@/lib/contract/report-limits";
import { LINK_URL_MAX } from "./links";
import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX, DASHBOARD_PARAMS_MAX } from "./params";
import { BROKER_PATH_MAX, FRAME_HEIGHT_MAX, HEIGHT_NOTICE_MS, SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_PANEL_SENT_MAX, SNAPSHOT_TAKEN_AT_ATTRIBUTE, SNAPSHOT_TIME } from "./protocol";

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
// Render report: the bootstrap tells the host what the dashboard did wrong as it happens (uncaught
// errors and rejections placed in the dashboard's HTML, console.error, requests it refused itself
// or its policy blocked), and answers the host's `paint` with `painted` after two animation
// frames; the host bounds, validates and sends the report (components/dashboard-frame).
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
const REMOVED_GLOBALS = /^(?:webkit|moz)?RTC[A-Z]|^XSLTProcessor$/;

/**
 * Elements a dashboard may not create: each would give it a child document, a realm of its own
 * where none of the bootstrap's containment applies (a srcdoc frame runs scripts, with
 * WebRTC, in a new opaque origin the bootstrap cannot reach), or a meta refresh navigation.
 * In markup they are renamed `x-blocked-<name>`, harmless unknown elements.
 */
const BLOCKED_ELEMENTS = ["iframe", "frame", "frameset", "object", "embed", "fencedframe", "portal", "meta"] as const;

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
//   _self, document.open with three arguments, meta refresh): refused before they start. A link
//   clicked, or an address given to window.open, goes to the host as a `link` request instead;
//   the host opens it in a new tab only if lib/frame/links.ts and its own user activation allow.
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
  function trustedMarkup(s) {
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
      // The frame opens nothing itself: the host decides, on its own user activation.
      if (linkSink) linkSink(href, "click");
      return;
    }
  }
  // Set by start(): where a link the dashboard asks to open is sent (the host's port).
  var linkSink = null;
  // Set by start(): what else must go back on the window after each document.open.
  var afterOpen = null;
  function guardNavigation() {
    if (afterOpen) afterOpen();
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
  defineProp(window, "open", {
    value: function (url) {
      try {
        if (linkSink) linkSink(url === undefined ? "" : Str(url), "open");
      } catch (e) {}
      return null;
    },
    writable: true,
    configurable: true,
  });
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

/** Notices of each kind (error, console.error, refusal) one dashboard document sends at most. */
export const RENDER_NOTICES_MAX = 200;
/** console.log, info, warn, debug and table lines one dashboard document sends at most. */
export const CONSOLE_LINES_MAX = 500;

/**
 * How console arguments become one line of text, as a browser's console prints them: strings as
 * they are at the top and quoted inside objects, objects and arrays to two levels (twenty entries
 * each), elements as <tag#id.class>, cycles as [Circular], printf-style %s %d %i %f %o %O %c, and
 * console.table as a text table. Self-contained, so the tests can run it. A dashboard that patches
 * the built-ins used here spoils only its own console lines; everything reaches the page as text.
 */
export const CONSOLE_FORMAT = String.raw`
  var FMT_ITEMS = 20, FMT_DEPTH = 2, TABLE_ROWS = 50, IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  function fmtKey(k) {
    return IDENT.test(k) ? k : JSON.stringify(k);
  }
  function fmtElement(v) {
    try {
      if (typeof Element !== "function" || !(v instanceof Element)) return null;
      var out = "<" + String(v.localName);
      if (v.id) out += "#" + String(v.id);
      var cls = typeof v.getAttribute === "function" ? v.getAttribute("class") : null;
      if (cls) out += "." + String(cls).trim().split(/\s+/).join(".");
      return out + ">";
    } catch (e) {
      return "<element>";
    }
  }
  function fmtValue(v, depth, seen, top) {
    var t = typeof v;
    if (t === "string") return top ? v : JSON.stringify(v);
    if (t === "number") return v === 0 && 1 / v < 0 ? "-0" : String(v);
    if (t === "bigint") return String(v) + "n";
    if (t === "symbol") return v.toString();
    if (t === "function") return "\u0192 " + (v.name || "anonymous") + "()";
    if (v === null || t !== "object") return String(v);
    if (seen.indexOf(v) !== -1) return "[Circular]";
    if (v instanceof Error) return String(v);
    if (v instanceof Date) return isFinite(v.getTime()) ? v.toISOString() : "Invalid Date";
    if (v instanceof RegExp) return String(v);
    var el = fmtElement(v);
    if (el !== null) return el;
    var isArray = Array.isArray(v);
    if (depth >= FMT_DEPTH) return isArray ? "Array(" + v.length + ")" : v instanceof Map ? "Map(" + v.size + ")" : v instanceof Set ? "Set(" + v.size + ")" : "{\u2026}";
    seen.push(v);
    try {
      var parts = [], n = 0, more = 0;
      if (isArray) {
        for (var i = 0; i < v.length; i++) {
          if (n >= FMT_ITEMS) { more = v.length - i; break; }
          parts.push(i in v ? fmtValue(v[i], depth + 1, seen, false) : "empty");
          n++;
        }
      } else if (v instanceof Map || v instanceof Set) {
        var isMap = v instanceof Map;
        v.forEach(function (value, key) {
          if (n >= FMT_ITEMS) { more++; return; }
          parts.push(isMap ? fmtValue(key, depth + 1, seen, false) + " => " + fmtValue(value, depth + 1, seen, false) : fmtValue(value, depth + 1, seen, false));
          n++;
        });
        if (more) parts.push("\u2026 " + more + " more");
        return (isMap ? "Map(" : "Set(") + v.size + ") {" + parts.join(", ") + "}";
      } else {
        var keys = Object.keys(v);
        for (var j = 0; j < keys.length; j++) {
          if (n >= FMT_ITEMS) { more = keys.length - j; break; }
          var shown;
          try {
            shown = fmtValue(v[keys[j]], depth + 1, seen, false);
          } catch (e) {
            shown = "[threw]";
          }
          parts.push(fmtKey(keys[j]) + ": " + shown);
          n++;
        }
      }
      if (more) parts.push("\u2026 " + more + " more");
      if (isArray) return "[" + parts.join(", ") + "]";
      var proto = Object.getPrototypeOf(v);
      var ctorName = proto && proto.constructor && typeof proto.constructor.name === "string" ? proto.constructor.name : "";
      var name = ctorName && ctorName !== "Object" ? ctorName + " " : "";
      return name + "{" + parts.join(", ") + "}";
    } finally {
      seen.pop();
    }
  }
  function fmtSafe(v, top) {
    try {
      return fmtValue(v, 0, [], top);
    } catch (e) {
      return "(" + typeof v + ")";
    }
  }
  // A first string argument may hold printf-style directives, as in the browser's console.
  function fmtArgs(args) {
    var out = [], i = 0;
    if (typeof args[0] === "string" && args[0].indexOf("%") !== -1) {
      i = 1;
      out.push(args[0].replace(/%([sdifoOc%])/g, function (m, d) {
        if (d === "%") return "%";
        if (i >= args.length) return m;
        var a = args[i++];
        if (d === "c") return "";
        if (d === "s") return typeof a === "string" ? a : fmtSafe(a, true);
        if (d === "d" || d === "i") return typeof a === "symbol" ? "NaN" : String(parseInt(a, 10));
        if (d === "f") return typeof a === "symbol" ? "NaN" : String(parseFloat(a));
        return fmtSafe(a, false);
      }));
    }
    for (; i < args.length; i++) out.push(fmtSafe(args[i], true));
    return out.join(" ");
  }
  function fmtTable(data, columns) {
    if (data === null || typeof data !== "object") return fmtArgs([data]);
    try {
      var rows = Object.keys(data).slice(0, TABLE_ROWS), cols = [], hasValue = false;
      if (Array.isArray(columns)) cols = columns.map(String);
      else
        rows.forEach(function (r) {
          var row = data[r];
          if (row !== null && typeof row === "object") Object.keys(row).forEach(function (k) { if (cols.indexOf(k) === -1 && cols.length < FMT_ITEMS) cols.push(k); });
          else hasValue = true;
        });
      var head = ["(index)"].concat(cols, hasValue ? ["Value"] : []);
      var lines = [head.join(" | ")];
      rows.forEach(function (r) {
        var row = data[r], cells = [r];
        cols.forEach(function (c) { cells.push(row !== null && typeof row === "object" && c in row ? fmtSafe(row[c], false) : ""); });
        if (hasValue) cells.push(row !== null && typeof row === "object" ? "" : fmtSafe(row, false));
        lines.push(cells.join(" | "));
      });
      var total = Object.keys(data).length;
      if (total > rows.length) lines.push("\u2026 " + (total - rows.length) + " more rows");
      return lines.join("\n");
    } catch (e) {
      return fmtArgs([data]);
    }
  }
`;

/**
 * Where in the dashboard's HTML an error happened. Scripts written by document.write count their
 * lines from their own start, and V8 names each script by the SHA-256 of its UTF-8 source
 * (CallSite.getScriptHash), so a stack frame is placed by finding the script element whose text
 * has that hash and that text in the written document. Self-contained, so the tests can run it.
 * Hostile code that patches a built-in these use spoils only its own report: the host validates
 * every notice, and nothing here holds the port.
 */
export const RENDER_HELPERS = String.raw`
  var SHA_K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];
  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }
  // SHA-256 of a byte array, as lowercase hex.
  function sha256Hex(bytes) {
    var len = bytes.length, blocks = ((len + 8) >> 6) + 1, m = new Uint32Array(blocks * 16);
    for (var i = 0; i < len; i++) m[i >> 2] |= bytes[i] << (24 - (i & 3) * 8);
    m[len >> 2] |= 0x80 << (24 - (len & 3) * 8);
    m[blocks * 16 - 1] = (len * 8) >>> 0;
    m[blocks * 16 - 2] = Math.floor(len / 0x20000000);
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Uint32Array(64);
    for (var b = 0; b < blocks; b++) {
      var t;
      for (t = 0; t < 16; t++) w[t] = m[b * 16 + t];
      for (t = 16; t < 64; t++) {
        var x = w[t - 15], y = w[t - 2];
        w[t] = (w[t - 16] + (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + w[t - 7] + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10))) | 0;
      }
      var a = h[0], c1 = h[1], c2 = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA_K[t] + w[t]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & c1) ^ (a & c2) ^ (c1 & c2))) | 0;
        k = g; g = f; f = e; e = (d + t1) | 0; d = c2; c2 = c1; c1 = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + c1) | 0; h[2] = (h[2] + c2) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
    }
    var hex = "";
    for (var j = 0; j < 8; j++) hex += ("0000000" + (h[j] >>> 0).toString(16)).slice(-8);
    return hex;
  }

  // Line and column, from 1, of the character at offset in source.
  function lineColumn(source, offset) {
    var line = 1, from = 0;
    for (;;) {
      var nl = source.indexOf("\n", from);
      if (nl < 0 || nl >= offset) return { line: line, column: offset - from + 1 };
      line++;
      from = nl + 1;
    }
  }

  // Where the nth script element whose text is text (in document order) starts its text in
  // source, the written document with its line breaks as the parser reads them (LF only).
  function scriptTextAt(source, text, nth) {
    if (!text) return -1;
    var from = 0, seen = 0;
    for (;;) {
      var at = source.indexOf(text, from);
      if (at < 0) return -1;
      var end = at + text.length;
      if (at > 0 && source.charAt(at - 1) === ">" && (end === source.length || source.slice(end, end + 8).toLowerCase() === "</script")) {
        if (seen === nth) return at;
        seen++;
      }
      from = at + 1;
    }
  }

  // A position within a script (line and column from 1, the first line starting where the
  // script's text does) as a position in the document, or null when the script is not in it.
  function placeInSource(source, text, nth, line, column) {
    var at = scriptTextAt(source, text, nth);
    if (at < 0) return null;
    var start = lineColumn(source, at);
    return { line: start.line + line - 1, column: line === 1 ? start.column + column - 1 : column };
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
  var HEIGHT_MAX = ${FRAME_HEIGHT_MAX}, HEIGHT_MS = ${HEIGHT_NOTICE_MS};
  var PATH_MAX = ${BROKER_PATH_MAX}, TIMEOUT = ${FETCH_TIMEOUT_MS}, SCROLL_MS = ${SCROLL_NOTICE_MS}, RESTORE_MS = ${SCROLL_RESTORE_MS};
  var SNAP_ID = ${JSON.stringify(SNAPSHOT_ELEMENT_ID)}, SNAP_AT = ${JSON.stringify(SNAPSHOT_TAKEN_AT_ATTRIBUTE)}, SNAP_TIME = new RegExp(${JSON.stringify(SNAPSHOT_TIME.source)}), SNAP_PANEL_MAX = ${SNAPSHOT_PANEL_SENT_MAX};
  var parseJson = JSON.parse, dateParse = Date.parse, dateUTC = Date.UTC, D = Date;
${containment}
${RENDER_HELPERS}
${CONSOLE_FORMAT}
  var strSlice = uncurry(String.prototype.slice), arrayJoin = uncurry(Array.prototype.join);
  var ErrorCtor = Error, TextEnc = typeof TextEncoder === "function" ? TextEncoder : null, MapCtor = Map;
  var LINK_MAX = ${LINK_URL_MAX};
  var MESSAGE_MAX = ${REPORT_MESSAGE_MAX}, REPORT_PATH = ${REPORT_PATH_MAX}, REASON_MAX = ${REPORT_REASON_MAX}, NOTICES_MAX = ${RENDER_NOTICES_MAX}, LINES_MAX = ${CONSOLE_LINES_MAX};
  var LINE_BREAKS = fixed("\r\n?", "g"), METHOD = fixed("^[A-Z]{1,16}$", ""), WRITE_FAILED = fixed("Failed to execute 'write' on 'Document': ", "");
  function getterOf(ctor, key) {
    var d = typeof ctor === "function" ? Object.getOwnPropertyDescriptor(ctor.prototype, key) : null;
    return d && d.get ? uncurry(d.get) : null;
  }
  var scriptsOf = typeof Document === "function" ? getterOf(Document, "scripts") : null;
  var currentScriptOf = typeof Document === "function" ? getterOf(Document, "currentScript") : null;
  var scriptTextOf = typeof HTMLScriptElement === "function" ? getterOf(HTMLScriptElement, "text") : null;
  var raf = typeof window.requestAnimationFrame === "function" ? window.requestAnimationFrame.bind(window) : null;
  // Taken before the dashboard runs, so its own patches cannot stop the frame following its size.
  var RO = typeof ResizeObserver === "function" ? ResizeObserver : null;
  var rectOf = typeof Element === "function" ? uncurry(Element.prototype.getBoundingClientRect) : null;
  var scrollHeightOf = typeof Element === "function" ? getterOf(Element, "scrollHeight") : null;
  var observe = RO ? uncurry(RO.prototype.observe) : null;
  var now = Date.now;

  function onMessage(event) {
    if (event.source !== parentWindow) return;
    var data = event.data, port = event.ports && event.ports[0];
    if (!port || !data || data.type !== "init" || typeof data.html !== "string" || typeof data.apiBase !== "string") return;
    removeListener.call(window, "message", onMessage);
    start(port, data);
  }
  addListener.call(window, "message", onMessage);

  function paramsOf(given) {
    var out = Object.create(null), count = 0, name;
    var nameShape = ${DASHBOARD_PARAM_NAME.toString()};
    if (given && typeof given === "object") {
      for (name in given) {
        if (!Object.prototype.hasOwnProperty.call(given, name) || count >= ${DASHBOARD_PARAMS_MAX}) continue;
        var value = given[name];
        if (!nameShape.test(name) || typeof value !== "string" || value.length > ${DASHBOARD_PARAM_VALUE_MAX}) continue;
        out[name] = value;
        count++;
      }
    }
    return Object.freeze(out);
  }

  function start(port, init) {
    var send = port.postMessage.bind(port);
    var pending = new Map();
    var nextId = 1;
    var origin = location.origin;

    port.onmessage = function (event) {
      var m = event.data;
      if (m && m.type === "paint" && typeof m.id === "number") {
        paintedAfter(m.id);
        return;
      }
      if (!m || m.type !== "response" || typeof m.id !== "number") return;
      var p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      p.settle(m);
    };

    linkSink = function (href, via) {
      send({ type: "link", href: href.length > LINK_MAX ? strSlice(href, 0, LINK_MAX + 1) : href, via: via });
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
        var refused = "Dashboards only read data: fetch with " + method + " is not allowed.";
        tellRefusal(matches(METHOD, method) ? method : "OTHER", input, "method_not_allowed", refused);
        return P.reject(new TE(refused));
      }
      var path = urlOf(input);
      if (path.length > PATH_MAX) {
        tellRefusal(method, path, "invalid_path", "The request URL is too long.");
        return P.reject(new TE("The request URL is too long."));
      }
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

    // panel: the name of the panel falling back (the page then names it), or nothing for the whole dashboard.
    function dashboardSnapshot(panel) {
      var el = document.getElementById(SNAP_ID);
      if (!el) return null;
      var data;
      try {
        data = parseJson(el.textContent || "");
      } catch (e) {
        return null;
      }
      var takenAt = snapshotTime(el.getAttribute(SNAP_AT));
      var notice = { type: "snapshot" };
      if (takenAt) notice.takenAt = takenAt;
      // Only text names a panel; anything else reads as the whole dashboard.
      if (typeof panel === "string") notice.panel = panel.length > SNAP_PANEL_MAX ? strSlice(panel, 0, SNAP_PANEL_MAX) : panel;
      send(notice);
      return { data: data, takenAt: takenAt };
    }

    // ---- Render report ------------------------------------------------------------------------
    var told = { error: 0, console: 0, refusal: 0, log: 0 };
    function tell(kind, message) {
      if (told[kind] >= (kind === "log" ? LINES_MAX : NOTICES_MAX)) return;
      told[kind]++;
      send(message);
    }
    function clip(s, max) {
      s = Str(s);
      return s.length > max ? strSlice(s, 0, max - 1) + "\u2026" : s;
    }
    function describe(v) {
      try {
        if (typeof v === "string") return v;
        if (v instanceof ErrorCtor) return Str(v);
        if (v !== null && typeof v === "object") {
          var j = JSON.stringify(v);
          if (typeof j === "string") return j;
        }
        return Str(v);
      } catch (e) {
        return "(" + typeof v + ")";
      }
    }
    function tellRefusal(method, input, error, reason) {
      try {
        tell("refusal", { type: "refusal", method: method, path: clip(typeof input === "string" ? input : urlOf(input), REPORT_PATH), error: error, reason: clip(reason, REASON_MAX) });
      } catch (e) {}
    }

    // The written document, its line breaks as the parser reads them; made on the first error.
    var written = "", source = null;
    var hashes = new MapCtor();
    function sourceText() {
      if (source === null) source = replaceAll(written, LINE_BREAKS, "\n");
      return source;
    }
    function hashOf(text) {
      var h = hashes.get(text);
      if (h === undefined) {
        h = TextEnc ? sha256Hex(new TextEnc().encode(text)) : "";
        hashes.set(text, h);
      }
      return h;
    }
    // The first stack frame of the dashboard's own scripts (they have no file name; the
    // bootstrap's frames name this document), read once through Error.prepareStackTrace.
    function frameOf(err) {
      if (err === null || (typeof err !== "object" && typeof err !== "function")) return null;
      var found = null;
      var saved = ErrorCtor.prepareStackTrace;
      try {
        ErrorCtor.prepareStackTrace = function (e, sites) {
          for (var i = 0; i < sites.length && !found; i++) {
            try {
              var site = sites[i];
              if (site.getFileName()) continue;
              var hash = typeof site.getScriptHash === "function" ? site.getScriptHash() : "";
              var line = site.getLineNumber();
              if (hash && line) found = { hash: hash, line: line, column: site.getColumnNumber() || 1 };
            } catch (x) {}
          }
          if (typeof saved === "function") return apply(saved, ErrorCtor, [e, sites]);
          var out = describe(e);
          for (var j = 0; j < sites.length; j++) out += "\n    at " + Str(sites[j]);
          return out;
        };
        void err.stack;
      } catch (x) {
      } finally {
        try { ErrorCtor.prepareStackTrace = saved; } catch (x) {}
      }
      return found;
    }
    function placeByHash(frame) {
      if (!scriptsOf || !scriptTextOf) return null;
      var list = scriptsOf(document);
      for (var i = 0; i < list.length; i++) {
        var text = scriptTextOf(list[i]);
        if (hashOf(text) === frame.hash) return placeInSource(sourceText(), text, 0, frame.line, frame.column);
      }
      return null;
    }
    // A script that failed to compile has no stack frame; it is the current script while its
    // error is reported, and the event's line counts from its start.
    function placeCurrentScript(line, column) {
      if (!currentScriptOf || !scriptsOf || !scriptTextOf || !line) return null;
      var el = currentScriptOf(document);
      if (!el) return null;
      var text = scriptTextOf(el), list = scriptsOf(document), nth = 0;
      for (var i = 0; i < list.length && list[i] !== el; i++) if (scriptTextOf(list[i]) === text) nth++;
      return placeInSource(sourceText(), text, nth, line, column || 1);
    }
    function tellError(kind, err, message, line, column) {
      var at = null;
      try {
        var frame = frameOf(err);
        at = frame ? placeByHash(frame) : kind === "error" ? placeCurrentScript(line, column) : null;
      } catch (e) {}
      tell("error", { type: "error", kind: kind, message: clip(message, MESSAGE_MAX), line: at ? at.line : null, column: at ? at.column : null });
    }
    function onError(event) {
      try {
        var message = replaceAll(Str(event.message || describe(event.error)), WRITE_FAILED, "");
        tellError("error", event.error, message, event.lineno, event.colno);
      } catch (e) {}
    }
    function onRejection(event) {
      try {
        tellError("rejection", event.reason, "Uncaught (in promise) " + describe(event.reason));
      } catch (e) {}
    }
    function onViolation(event) {
      try {
        var uri = Str(event.blockedURI || ""), directive = Str(event.effectiveDirective || event.violatedDirective || "");
        var reason = uri === "eval"
          ? "The frame's Content-Security-Policy blocks eval and new Function."
          : "The frame's Content-Security-Policy (" + directive + ") blocks it: a dashboard reads data only with fetch(window.DASHBOARD_API_BASE + path) and loads nothing from elsewhere.";
        tellRefusal(null, uri, "blocked_by_policy", reason);
      } catch (e) {}
    }
    function watchRender() {
      addListener.call(window, "error", onError);
      addListener.call(window, "unhandledrejection", onRejection);
      addListener.call(window, "securitypolicyviolation", onViolation);
    }
    // Every console level reaches the page (the editor's console); console.error lines also go
    // into the render report. Each call still reaches the browser's own console.
    var con = window.console;
    function wrapConsole(method, level) {
      var original = con && con[method];
      if (typeof original !== "function") return;
      try {
        defineProp(con, method, {
          value: function () {
            try {
              var line = method === "table" ? fmtTable(arguments[0], arguments[1]) : fmtArgs(arguments);
              if (line) tell(level === "error" ? "console" : "log", { type: "console", level: level, message: clip(line, MESSAGE_MAX) });
            } catch (e) {}
            return apply(original, this, arguments);
          },
          writable: true,
          configurable: true,
        });
      } catch (e) {}
    }
    if (con) {
      wrapConsole("log", "log");
      wrapConsole("info", "info");
      wrapConsole("warn", "warn");
      wrapConsole("error", "error");
      wrapConsole("debug", "debug");
      wrapConsole("table", "log");
    }
    // Two animation frames: the first runs before the next paint, the second after it.
    function paintedAfter(id) {
      if (!raf) return send({ type: "painted", id: id });
      raf(function () { raf(function () { send({ type: "painted", id: id }); }); });
    }

    Object.defineProperty(window, "fetch", { value: shimFetch, writable: true, configurable: true });
    Object.defineProperty(window, ${JSON.stringify(SNAPSHOT_HELPER)}, { value: dashboardSnapshot, writable: true, configurable: true });
    window.DASHBOARD_API_BASE = init.apiBase;
    // Which data the dashboard is on, said once by the frame so no dashboard compares URLs.
    window.DASHBOARD_DATA_MODE = init.apiBase === ${JSON.stringify(PLAYGROUND_API_BASE)} ? "demo" : "live";
    // The address's parameters, checked again here against the same bounds as the host's parser:
    // own string properties only, on a frozen object with no prototype, so a name such as
    // "constructor" reads as what the address said and nothing else.
    window.DASHBOARD_PARAMS = paramsOf(init.params);

    written = neutralise(init.html);
    afterOpen = watchRender;
    document.open();
    guardNavigation();
    document.write(trustedMarkup(written));
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

    // The document's height, for hosts that size the frame to it: the root's box (not its
    // scrollHeight, which never falls below the frame's own height, so the frame could only grow)
    // or the body's overflow, whichever is taller. At most one notice per HEIGHT_MS.
    // Content sized by the viewport (body { min-height: 100vh } plus its margin) grows by exactly
    // as much as the frame does, so following it would grow the frame without end: a change of
    // height equal to the change of the frame's own viewport since the last measure is not told.
    var lastHeight = -1, lastMeasured = -1, lastViewport = -1, heightTimer = 0, heightAt = 0;
    function measureHeight() {
      var root = document.documentElement, body = document.body, h = 0;
      // Nothing laid out, nothing to tell.
      if (!root || !rectOf) return -1;
      try {
        h = rectOf(root).height;
        if (body && scrollHeightOf) { var b = scrollHeightOf(body); if (b > h) h = b; }
      } catch (e) {}
      h = Math.ceil(h);
      return h > HEIGHT_MAX ? HEIGHT_MAX : h > 0 ? h : 0;
    }
    function sendHeight() {
      heightTimer = 0;
      heightAt = now();
      var h = measureHeight(), v = Math.round(+window.innerHeight || 0);
      // A frame not shown yet (the host's standby, just handed this document) has no viewport
      // and nothing laid out: its measure would read 0, and shrink the frame it is about to
      // replace. The resize when it is shown measures again.
      if (h < 0 || v === 0) return;
      var followsViewport = lastMeasured >= 0 && v !== lastViewport && h - lastMeasured === v - lastViewport;
      lastMeasured = h;
      lastViewport = v;
      if (!followsViewport && h !== lastHeight) { lastHeight = h; send({ type: "height", height: h }); }
    }
    function heightChanged() {
      if (heightTimer) return;
      var wait = heightAt + HEIGHT_MS - now();
      heightTimer = setT(sendHeight, wait > 0 ? wait : 0);
    }
    if (RO && observe) {
      try {
        var sizes = new RO(heightChanged);
        if (document.documentElement) observe(sizes, document.documentElement);
        if (document.body) observe(sizes, document.body);
      } catch (e) {}
    }
    addListener.call(window, "load", heightChanged);
    addListener.call(window, "resize", heightChanged, { passive: true });
    heightChanged();

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

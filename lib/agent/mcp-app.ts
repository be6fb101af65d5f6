import { PLAYGROUND_API_BASE } from "@/lib/contract/playground-limits";
import { FRAME_CSP, bootstrapHtml } from "@/lib/frame/bootstrap";
import { BROKER_PATH_MAX, BROKER_RATE, FRAME_HEIGHT_MAX } from "@/lib/frame/protocol";
import { INERT_FRAME_ATTRIBUTES } from "@/lib/inert/policy";

// The draft as an MCP App (the MCP Apps extension, protocol 2026-01-26): a host that renders
// apps shows the dashboard inline in the conversation, under the draft tools' results. The view
// is one HTML document the host puts in its sandboxed frame. It speaks JSON-RPC to the host over
// postMessage, reads the draft through the host (read_draft), and runs the dashboard in a frame
// of its own, from the same bootstrap a watcher's browser uses, so the dashboard's code runs
// unchanged. The dashboard's reads travel over that frame's port to the view, which relays each
// one through the host to read_demo_data; the server checks it as the browser's broker does and
// answers it from the demo API with the draft's own scenario and variants. The view asks for no
// network access at all (an empty CSP declaration), so nothing leaves the frame but through the
// host. It follows the draft by asking show_draft for a revision newer than the one shown, which
// the server answers when one is written (or after a while, when the view asks again): a new
// revision replaces the dashboard about as soon as a watcher's browser gets it.

export const DRAFT_VIEW_URI = "ui://dashboards-playground/draft.html";

/** The writing rules as an MCP resource (text/markdown): what llms.txt says, for a client that reads only MCP. */
export const RULES_URI = "dashboards://playground/rules.md";
/** What a dashboard shows in each demo state, the table llms.txt prints. */
export const STATES_URI = "dashboards://playground/states.md";
/** MCP Apps' media type of an app's HTML. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The tool metadata that names the view: the current key and the one older hosts read. */
export const DRAFT_VIEW_TOOL_META = { ui: { resourceUri: DRAFT_VIEW_URI }, "ui/resourceUri": DRAFT_VIEW_URI };
/** No connect, resource or frame origins: the view reaches the service only through the host. */
export const DRAFT_VIEW_RESOURCE_META = { ui: { csp: {}, prefersBorder: true } };

const APPS_PROTOCOL_VERSION = "2026-01-26";
/** The least time between two questions for a newer revision that found none (a server answering at once, say). */
const FOLLOW_GAP_MS = 1_000;
/** The pause after a failed question before the next. */
const FOLLOW_RETRY_MS = 3_000;

const asScript = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

const metaPolicy = (policy: string) => `<meta http-equiv="Content-Security-Policy" content="${policy}">`;

/**
 * The view's own policy, inherited by the dashboard's frame: no network, no frames but its own
 * (a srcdoc frame is not governed by frame-src), whatever the host's policy is.
 */
const VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; frame-src 'none'; worker-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * The dashboard frame's first document: the watch page's bootstrap under the policy the frame's
 * route sends as a header (all of it but the sandbox, which the frame element sets), Trusted
 * Types included, so markup the dashboard writes passes the bootstrap's containment here too.
 */
const frameBootstrap = () =>
  bootstrapHtml().replace(
    '<meta charset="utf-8">',
    `<meta charset="utf-8">${metaPolicy(
      FRAME_CSP.split("; ")
        .filter((d) => !d.startsWith("sandbox"))
        .join("; "),
    )}`,
  );

/**
 * What both views share: the JSON-RPC of MCP Apps with the host over postMessage (requests,
 * notifications, tool calls, answering the host's own requests), the status line, and the
 * dashboard's frame from the watch page's bootstrap with its reads relayed through the host to a
 * tool. Each view's own part calls `frameFor`, `relay` and `serve`.
 */
const bridge = String.raw`
  var BOOT = ${asScript(frameBootstrap())};
  var PATH_MAX = ${BROKER_PATH_MAX};
  var HEIGHT_MAX = ${FRAME_HEIGHT_MAX};
  var host = window.parent;
  var statusLine = document.getElementById("status");
  var stage = document.getElementById("stage");
  var nextId = 1;
  var pending = new Map();
  var frame = null;
  var port = null;

  function post(message) { host.postMessage(message, "*"); }
  function request(method, params) {
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending.set(id, { resolve: resolve, reject: reject });
      post({ jsonrpc: "2.0", id: id, method: method, params: params });
    });
  }
  function notify(method, params) { post({ jsonrpc: "2.0", method: method, params: params || {} }); }
  function resize() { notify("ui/notifications/size-changed", { height: Math.ceil(document.documentElement.scrollHeight) }); }
  function say(text) { statusLine.textContent = text; statusLine.hidden = !text; resize(); }
  function textOf(result) {
    var content = (result && result.content) || [];
    for (var i = 0; i < content.length; i++) if (content[i] && content[i].type === "text") return String(content[i].text);
    return "The tool failed.";
  }
  function callTool(name, args) {
    return request("tools/call", { name: name, arguments: args }).then(function (result) {
      if (!result || result.isError) { var failed = new Error(textOf(result)); failed.refusal = result && result.structuredContent; throw failed; }
      return result.structuredContent || {};
    });
  }

  // The browser's broker holds a frame to BROKER_RATE (components/dashboard-frame/broker.ts); a
  // view's relay is that broker here, so the same bucket, concurrency and queue apply, kept for
  // the life of the view so a dashboard that replaces itself gets no fresh allowance.
  var RATE = ${asScript(BROKER_RATE)};
  var tokens = RATE.burst;
  var refilled = Date.now();
  var inFlight = 0;
  var waiting = [];
  function takeToken() {
    var t = Date.now();
    tokens = Math.min(RATE.burst, tokens + ((t - refilled) / 1000) * RATE.perSecond);
    refilled = t;
    if (tokens < 1 || waiting.length >= RATE.queued) return false;
    tokens -= 1;
    return true;
  }
  function limited(task) {
    function start() {
      inFlight++;
      task().then(done, done);
    }
    function done() {
      inFlight--;
      var next = waiting.shift();
      if (next) next();
    }
    if (inFlight < RATE.inFlight) start();
    else waiting.push(start);
  }
  function answerRead(to, id, status, contentType, body) {
    to.postMessage({ type: "response", id: id, status: status, headers: { "content-type": contentType }, body: body });
  }

  // One read of the dashboard, answered by the tool as {status, contentType, body}.
  function relay(to, data, tool, args) {
    if (!takeToken()) {
      answerRead(to, data.id, 429, "application/json", JSON.stringify({ error: "rate_limited", hint: "The dashboard is making too many requests; slow down." }));
      return;
    }
    args.method = String(data.method || "GET").slice(0, 16);
    args.path = String(data.path || "").slice(0, PATH_MAX);
    limited(function () {
      return callTool(tool, args).then(
        function (read) { answerRead(to, data.id, Number(read.status) || 502, String(read.contentType || "application/json"), String(read.body || "")); },
        function (failed) {
          // A read the server refused before the API (read_demo_data's own error) keeps its status and envelope.
          var refusal = failed && failed.refusal;
          if (refusal && typeof refusal.error === "string" && typeof refusal.status === "number") {
            answerRead(to, data.id, refusal.status, "application/json", JSON.stringify(refusal.hint ? { error: refusal.error, hint: refusal.hint } : { error: refusal.error }));
          } else {
            answerRead(to, data.id, 502, "application/json", JSON.stringify({ error: "upstream_unreachable", hint: "The host did not relay the read; try again." }));
          }
        }
      );
    });
  }

  // Replaces the shown dashboard with one running \`html\`; \`onFetch(port, data)\` gets its reads.
  function frameFor(title, html, apiBase, revision, onFetch) {
    var channel = new MessageChannel();
    var next = document.createElement("iframe");
    next.setAttribute("sandbox", "allow-scripts");
    next.title = title;
    next.srcdoc = BOOT;
    next.addEventListener("load", function () {
      next.contentWindow.postMessage({ type: "init", html: html, apiBase: apiBase, params: {} }, "*", [channel.port2]);
    }, { once: true });
    channel.port1.onmessage = function (event) {
      var data = event.data;
      if (!data || typeof data !== "object") return;
      if (data.type === "fetch" && typeof data.id === "number") onFetch(channel.port1, data);
      else if (data.type === "height" && typeof data.height === "number" && frame === next) {
        next.style.height = Math.max(120, Math.min(HEIGHT_MAX, Math.round(data.height))) + "px";
        resize();
      }
    };
    if (port) port.close();
    if (frame) frame.remove();
    frame = next;
    port = channel.port1;
    stage.dataset.revision = String(revision);
    stage.appendChild(next);
    say("");
  }

  function serve(appName, onToolResult, onTeardown) {
    window.addEventListener("message", function (event) {
      if (event.source !== host) return;
      var m = event.data;
      if (!m || m.jsonrpc !== "2.0") return;
      if (m.method === undefined && pending.has(m.id)) {
        var waiting = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) waiting.reject(new Error(String(m.error.message || "error")));
        else waiting.resolve(m.result);
        return;
      }
      if (m.method === "ui/notifications/host-context-changed") { hostContext = Object.assign({}, hostContext, m.params || {}); onHostContext(); }
      else if (m.method === "ui/notifications/tool-result") onToolResult(m.params);
      else if (m.method === "ui/notifications/tool-cancelled") say("The tool call was cancelled.");
      else if (m.method === "ui/resource-teardown") { onTeardown(); post({ jsonrpc: "2.0", id: m.id, result: {} }); }
      else if (m.method === "ping") post({ jsonrpc: "2.0", id: m.id, result: {} });
      else if (m.id !== undefined && m.method !== undefined) post({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
    });
    request("ui/initialize", {
      appInfo: { name: appName, version: "1.0.0" },
      appCapabilities: { availableDisplayModes: DISPLAY_MODES },
      protocolVersion: "${APPS_PROTOCOL_VERSION}"
    }).then(function (answer) {
      hostCapabilities = (answer && answer.hostCapabilities) || {};
      hostContext = (answer && answer.hostContext) || {};
      onHostContext();
      notify("ui/notifications/initialized", {});
    }, function (err) { say("The host did not start the view: " + err.message); });
  }

  // What the host offers, from its answer to ui/initialize and its later context changes.
  var DISPLAY_MODES = ["inline", "fullscreen", "pip"];
  var hostCapabilities = {};
  var hostContext = {};
  var contextListeners = [];
  function onHostContext() { contextListeners.forEach(function (f) { f(); }); }
  function hostModes() {
    var offered = Array.isArray(hostContext.availableDisplayModes) ? hostContext.availableDisplayModes : [];
    return DISPLAY_MODES.filter(function (mode) { return offered.indexOf(mode) !== -1; });
  }

  // The view's own storage, keyed by what the server named it (the draft's read id, the saved
  // dashboard's path), so a conversation reloaded shows it as it was left. A host whose frame has
  // no storage (an opaque origin) gets the view as new each time.
  var store = (function () {
    try {
      var ls = window.localStorage;
      ls.getItem("probe");
      return ls;
    } catch (e) {
      return null;
    }
  })();
  function remembered(key) {
    if (!store) return {};
    try { return JSON.parse(store.getItem("dashboards-view:" + key) || "{}") || {}; } catch (e) { return {}; }
  }
  function remember(key, value) {
    if (!store) return;
    try { store.setItem("dashboards-view:" + key, JSON.stringify(value)); } catch (e) {}
  }
`;

const script = String.raw`
(function () {
  "use strict";
${bridge}
  var API_BASE = ${asScript(PLAYGROUND_API_BASE)};
  var readId = null;
  var shown = 0;
  var following = false;
  var stopped = false;

  var html = "";
  var viewKey = null;
  var tools = document.getElementById("tools");
  var MODE_NAMES = { inline: "Inline", fullscreen: "Full screen", pip: "Picture in picture" };

  function button(label, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", onClick);
    tools.appendChild(b);
    return b;
  }
  function download(contents, what) {
    request("ui/download-file", { contents: contents }).then(
      function (answer) { if (answer && answer.isError) say("The host did not save the " + what + "."); },
      function (err) { say("The host did not save the " + what + ": " + err.message); }
    );
  }
  function fileName(ext) { return "dashboard-draft-r" + shown + "." + ext; }
  function downloadHtml() {
    download([{ type: "resource", resource: { uri: "file:///" + fileName("html"), mimeType: "text/html", text: html } }], "HTML");
  }
  function downloadPicture(b) {
    b.disabled = true;
    say("Drawing the picture…");
    request("tools/call", { name: "render_draft", arguments: { readId: readId } }).then(function (result) {
      b.disabled = false;
      var image = ((result && result.content) || []).filter(function (c) { return c && c.type === "image"; })[0];
      if (!result || result.isError || !image) { say(textOf(result)); return; }
      say("");
      download([{ type: "resource", resource: { uri: "file:///" + fileName("png"), mimeType: image.mimeType || "image/png", blob: image.data } }], "picture");
    }, function (err) { b.disabled = false; say(err.message); });
  }
  function setMode(mode) {
    request("ui/request-display-mode", { mode: mode }).then(function (answer) {
      var now = (answer && answer.mode) || hostContext.displayMode || "inline";
      hostContext = Object.assign({}, hostContext, { displayMode: now });
      if (viewKey) remember(viewKey, { displayMode: now });
      drawTools();
    }, function () {});
  }
  // The buttons the host makes possible: downloads where it saves files, the display modes it offers.
  function drawTools() {
    tools.textContent = "";
    if (hostCapabilities.downloadFile) {
      button("Download HTML", downloadHtml);
      var pic = button("Download picture", function () { downloadPicture(pic); });
    }
    var modes = hostModes();
    if (modes.length > 1) {
      var current = hostContext.displayMode || "inline";
      modes.forEach(function (mode) {
        var b = button(MODE_NAMES[mode], function () { setMode(mode); });
        b.setAttribute("aria-pressed", String(mode === current));
      });
    }
    tools.hidden = tools.childNodes.length === 0 || !readId;
    resize();
  }
  contextListeners.push(drawTools);

  function restore() {
    var saved = remembered(viewKey);
    var current = hostContext.displayMode || "inline";
    if (typeof saved.displayMode === "string" && saved.displayMode !== current && hostModes().indexOf(saved.displayMode) !== -1) setMode(saved.displayMode);
  }

  function show(view) {
    shown = view.revision;
    html = view.html;
    if (view.dataMode !== "demo") {
      say("This draft reads live data, which is shown only to a signed-in person who agreed to it: open its watchUrl in a browser.");
      return;
    }
    frameFor("Dashboard draft, revision " + view.revision, view.html, API_BASE, view.revision, function (to, data) {
      relay(to, data, "read_demo_data", { readId: readId, asFetched: true });
    });
  }

  function load() {
    return callTool("read_draft", { readId: readId }).then(function (view) { if (view.revision !== shown) show(view); });
  }

  function followNext() {
    if (stopped) return;
    var asked = Date.now();
    var was = shown;
    callTool("show_draft", { readId: readId, afterRevision: shown }).then(function (state) {
      return state.revision !== shown ? load() : null;
    }).then(
      function () { if (!stopped) setTimeout(followNext, shown !== was ? 0 : Math.max(0, ${FOLLOW_GAP_MS} - (Date.now() - asked))); },
      function () { if (!stopped) setTimeout(followNext, ${FOLLOW_RETRY_MS}); }
    );
  }

  function follow(result) {
    var content = result && result.structuredContent;
    if (!result || result.isError || !content || typeof content.id !== "string") {
      if (result && result.isError) say(textOf(result));
      return;
    }
    if (following) return;
    following = true;
    readId = content.id;
    viewKey = "draft:" + readId;
    restore();
    load().then(function () { drawTools(); followNext(); }, function (err) { say(err.message); following = false; });
  }

  serve("dashboards-playground-draft", follow, function () { stopped = true; });
})();`;

/** The view's document, as the host receives it from resources/read. */
export function draftViewHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${metaPolicy(VIEW_CSP)}<title>Dashboard draft</title><style>html,body{margin:0;background:transparent;color:#1f2328;font:14px/1.45 system-ui,sans-serif}#status{margin:0;padding:12px 14px}#tools{display:flex;flex-wrap:wrap;gap:6px;padding:8px 14px 0}#tools[hidden]{display:none}#tools button{font:inherit;padding:4px 10px;border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;color:inherit;cursor:pointer}#tools button[aria-pressed=true]{background:#ddf4ff;border-color:#54aeff}#tools button:focus-visible{outline:3px solid #0969da;outline-offset:2px}iframe{display:block;width:100%;height:480px;border:0}</style></head><body><div id="tools" role="toolbar" aria-label="Draft" hidden></div><p id="status" role="status">Waiting for the draft…</p><div id="stage"></div><script>${script}</script></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// A saved dashboard as an MCP App, on the viewer's live data (lib/agent/mcp-dashboard.ts). The
// same frame and bootstrap; the dashboard's reads go through the host to read_live_data, which
// the server answers from /api as the person the host's access token speaks for. Only the
// viewer's own dashboards and trusted authors' run here. Anyone else's code never runs here: the
// view asks draw_dashboard for the safe view's drawing (the service's own browser drew it on the
// person's data; lib/saved/drawings.ts) and shows that inert document in a frame with no script
// permission (sandbox without allow-scripts), under its own policy that allows inline styles and
// data: images alone, which the view's policy repeats. For it interactive, the view offers to open
// its page on this site, where the person decides (ui/open-link); no answer given inside a host
// can stand for theirs.

export const DASHBOARD_VIEW_URI = "ui://dashboards/saved-dashboard.html";
export const DASHBOARD_VIEW_TOOL_META = { ui: { resourceUri: DASHBOARD_VIEW_URI }, "ui/resourceUri": DASHBOARD_VIEW_URI };

const dashboardScript = String.raw`
(function () {
  "use strict";
${bridge}
  var API_BASE = "/api";
  var target = null;
  var started = false;

  function run(view) {
    frameFor(view.title + " by " + view.owner.name, view.html, API_BASE, view.revision, function (to, data) {
      relay(to, data, "read_live_data", { handle: target.handle, slug: target.slug });
    });
  }

  function load() {
    say("Loading the dashboard…");
    return callTool("read_dashboard", { handle: target.handle, slug: target.slug }).then(run, function (err) { say(err.message); });
  }

  function el(tag, text) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; }

  function openOnSite(state) {
    request("ui/open-link", { url: state.url }).then(
      function (r) { if (r && r.isError) say("The host did not open it: open " + state.url + " in your browser."); },
      function () { say("The host did not open it: open " + state.url + " in your browser."); }
    );
  }

  // Someone else's dashboard, drawn by the service on the viewer's data: the inert document in a
  // frame that may run nothing, the plain words of what it is, and the way to it interactive.
  var FRAME = ${asScript(INERT_FRAME_ATTRIBUTES)};
  var REFRESH_MS = ${5 * 60_000};
  var BUSY_TRIES = 20;
  var drawTimer = null;
  var drawing = false;
  var stopped = false;
  function drawn(state) {
    var box = el("section");
    box.id = "drawn";
    box.setAttribute("aria-label", "Drawn dashboard");
    var notice = el("p");
    notice.id = "drawn-notice";
    notice.appendChild(el("strong", "Drawn on your data by this site:"));
    notice.appendChild(document.createTextNode(" the dashboard's own code did not run in your browser. "));
    var when = el("span", "");
    when.className = "muted";
    when.id = "drawn-at";
    notice.appendChild(when);
    box.appendChild(notice);
    var by = el("p", "“");
    by.className = "muted";
    by.appendChild(el("bdi", state.title));
    by.appendChild(document.createTextNode("” by "));
    by.appendChild(el("bdi", state.owner.name));
    by.appendChild(document.createTextNode(" (@" + state.owner.handle + ")"));
    box.appendChild(by);
    var actions = el("p");
    var refresh = el("button", "Refresh");
    refresh.type = "button";
    refresh.id = "drawn-refresh";
    var open = el("button", "Open on Dashboards");
    open.type = "button";
    open.id = "open-on-site";
    actions.appendChild(refresh);
    actions.appendChild(document.createTextNode(" "));
    actions.appendChild(open);
    box.appendChild(actions);
    var shown = null;
    stage.appendChild(box);
    open.addEventListener("click", function () { openOnSite(state); });

    function show(d) {
      var next = document.createElement("iframe");
      next.id = "drawn-frame";
      next.setAttribute("sandbox", FRAME.sandbox);
      next.setAttribute("referrerpolicy", FRAME.referrerPolicy);
      next.title = "Dashboard: " + state.title + " (drawn on your data)";
      next.style.height = Math.max(160, Math.min(HEIGHT_MAX, Math.round(Number(d.height) || 0))) + "px";
      next.srcdoc = String(d.html);
      if (shown) shown.remove();
      shown = next;
      box.appendChild(next);
      when.textContent = "Drawn at " + new Date(d.drawnAt).toLocaleTimeString() + ".";
      say("");
    }
    function busyOf(err) {
      var lines = String(err && err.message || "").split("\n");
      try {
        var e = JSON.parse(lines[lines.length - 1]);
        return e && e.error === "renderer_busy" ? Math.max(1, Math.min(60, Number(e.retryAfter) || 5)) : 0;
      } catch (x) { return 0; }
    }
    function draw(tries) {
      if (stopped) return;
      drawing = true;
      refresh.disabled = true;
      clearTimeout(drawTimer);
      say(shown ? "Drawing it again…" : "Drawing it on your data…");
      var viewport = window.innerWidth <= 600 ? "phone" : "desktop";
      callTool("draw_dashboard", { handle: target.handle, slug: target.slug, viewport: viewport }).then(
        function (d) {
          drawing = false;
          refresh.disabled = false;
          show(d);
          drawTimer = setTimeout(function () { draw(BUSY_TRIES); }, REFRESH_MS);
        },
        function (err) {
          var wait = busyOf(err);
          if (wait && tries > 1) {
            say("Waiting for a free drawing slot; trying again in " + wait + " s…");
            drawTimer = setTimeout(function () { draw(tries - 1); }, wait * 1000);
            return;
          }
          drawing = false;
          refresh.disabled = false;
          say(String(err.message).split("\n")[0]);
        }
      );
    }
    refresh.addEventListener("click", function () { if (!drawing) draw(BUSY_TRIES); });
    draw(BUSY_TRIES);
  }

  function onResult(result) {
    if (!result || result.isError) { if (result) say(textOf(result)); return; }
    var state = result.structuredContent;
    if (!state || typeof state.path !== "string" || started) return;
    var parts = state.path.split("/");
    target = { handle: parts[2], slug: parts[3] };
    started = true;
    if (state.live === "run") load();
    else drawn(state);
  }

  serve("dashboards-saved", onResult, function () { stopped = true; clearTimeout(drawTimer); });
})();`;

/** The saved dashboard view's document, as the host receives it from resources/read. */
export function dashboardViewHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${metaPolicy(VIEW_CSP)}<title>Saved dashboard</title><style>html,body{margin:0;background:transparent;color:#1f2328;font:14px/1.45 system-ui,sans-serif}#status{margin:0;padding:12px 14px}.muted{color:#57606a}button{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa;cursor:pointer}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}iframe{display:block;width:100%;height:480px;border:0}#drawn{padding:4px 14px 12px}#drawn iframe{border:1px solid #d0d7de;border-radius:6px}</style></head><body><p id="status" role="status">Waiting for the dashboard…</p><div id="stage"></div><script>${dashboardScript}</script></body></html>`;
}

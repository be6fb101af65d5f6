import { PLAYGROUND_API_BASE } from "@/lib/contract/playground-limits";
import { FRAME_CSP, bootstrapHtml } from "@/lib/frame/bootstrap";
import { BROKER_PATH_MAX, BROKER_RATE, FRAME_HEIGHT_MAX } from "@/lib/frame/protocol";

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
      if (!result || result.isError) throw new Error(textOf(result));
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
        function () { answerRead(to, data.id, 502, "application/json", JSON.stringify({ error: "upstream_unreachable", hint: "The host did not relay the read; try again." })); }
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
      if (m.method === "ui/notifications/tool-result") onToolResult(m.params);
      else if (m.method === "ui/notifications/tool-cancelled") say("The tool call was cancelled.");
      else if (m.method === "ui/resource-teardown") { onTeardown(); post({ jsonrpc: "2.0", id: m.id, result: {} }); }
      else if (m.method === "ping") post({ jsonrpc: "2.0", id: m.id, result: {} });
      else if (m.id !== undefined && m.method !== undefined) post({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
    });
    request("ui/initialize", {
      appInfo: { name: appName, version: "1.0.0" },
      appCapabilities: { availableDisplayModes: ["inline"] },
      protocolVersion: "${APPS_PROTOCOL_VERSION}"
    }).then(function () { notify("ui/notifications/initialized", {}); }, function (err) { say("The host did not start the view: " + err.message); });
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

  function show(view) {
    shown = view.revision;
    if (view.dataMode !== "demo") {
      say("This draft reads live data, which is shown only to a signed-in person who agreed to it: open its watchUrl in a browser.");
      return;
    }
    frameFor("Dashboard draft, revision " + view.revision, view.html, API_BASE, view.revision, function (to, data) {
      relay(to, data, "read_demo_data", { readId: readId });
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
    load().then(followNext, function (err) { say(err.message); following = false; });
  }

  serve("dashboards-playground-draft", follow, function () { stopped = true; });
})();`;

/** The view's document, as the host receives it from resources/read. */
export function draftViewHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${metaPolicy(VIEW_CSP)}<title>Dashboard draft</title><style>html,body{margin:0;background:transparent;color:#1f2328;font:14px/1.45 system-ui,sans-serif}#status{margin:0;padding:12px 14px}iframe{display:block;width:100%;height:480px;border:0}</style></head><body><p id="status" role="status">Waiting for the draft…</p><div id="stage"></div><script>${script}</script></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// A saved dashboard as an MCP App, on the viewer's live data (lib/agent/mcp-dashboard.ts). The
// same frame and bootstrap; the dashboard's reads go through the host to read_live_data, which
// the server answers from /api as the person the host's access token speaks for. Only the
// viewer's own dashboards and trusted authors' run here. Anyone else's gets no frame at all: the
// view says whose it is and what it reads, and offers to open its page on this site, where the
// person decides (ui/open-link); no answer given inside a host can stand for theirs.

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

  // Someone else's dashboard: who wrote it, what it would read, and the way to its own page.
  function handOff(state) {
    var gate = el("section");
    gate.id = "gate";
    gate.setAttribute("aria-labelledby", "gate-title");
    // Names and titles someone else chose sit in <bdi>, so none can reorder the words around it.
    var h = el("h2");
    h.appendChild(el("bdi", state.owner.name));
    h.appendChild(document.createTextNode(" (@" + state.owner.handle + ") wrote this dashboard"));
    h.id = "gate-title";
    gate.appendChild(h);
    var about = el("p", "“");
    about.appendChild(el("bdi", state.title));
    about.appendChild(document.createTextNode("” is not yours, so it does not run here on your data. Open it on Dashboards, where you decide whether it may read:"));
    gate.appendChild(about);
    var list = el("ul");
    list.id = "gate-reads";
    if (state.reads.length === 0) list.appendChild(el("li", "no API paths"));
    for (var i = 0; i < state.reads.length; i++) list.appendChild(el("li", state.reads[i]));
    gate.appendChild(list);
    var actions = el("p");
    var open = el("button", "Open on Dashboards");
    open.id = "open-on-site";
    open.type = "button";
    actions.appendChild(open);
    gate.appendChild(actions);
    var where = el("p", state.url);
    where.className = "muted";
    where.id = "gate-url";
    gate.appendChild(where);
    open.addEventListener("click", function () {
      request("ui/open-link", { url: state.url }).then(
        function (r) { if (r && r.isError) say("The host did not open it: open " + state.url + " in your browser."); },
        function () { say("The host did not open it: open " + state.url + " in your browser."); }
      );
    });
    stage.appendChild(gate);
    say("");
  }

  function onResult(result) {
    if (!result || result.isError) { if (result) say(textOf(result)); return; }
    var state = result.structuredContent;
    if (!state || typeof state.path !== "string" || started) return;
    var parts = state.path.split("/");
    target = { handle: parts[2], slug: parts[3] };
    started = true;
    if (state.live === "run") load();
    else handOff(state);
  }

  serve("dashboards-saved", onResult, function () {});
})();`;

/** The saved dashboard view's document, as the host receives it from resources/read. */
export function dashboardViewHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${metaPolicy(VIEW_CSP)}<title>Saved dashboard</title><style>html,body{margin:0;background:transparent;color:#1f2328;font:14px/1.45 system-ui,sans-serif}#status{margin:0;padding:12px 14px}#gate{padding:4px 14px 12px}#gate h2{font-size:16px;margin:8px 0}.muted{color:#57606a}button{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa;cursor:pointer}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}iframe{display:block;width:100%;height:480px;border:0}</style></head><body><p id="status" role="status">Waiting for the dashboard…</p><div id="stage"></div><script>${dashboardScript}</script></body></html>`;
}

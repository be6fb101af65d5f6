// The script of the sandboxed dashboard frame's first document (lib/frame/bootstrap.ts serves it;
// scripts/frame-scripts.mjs compiles this file and what it imports into one function of
// `frameConfig`, lib/frame/scripts.generated.ts). It waits for the host page's init message,
// installs the fetch shim that talks to the broker over the MessagePort, then replaces the
// document with the dashboard via document.open/write. document.open keeps the same Window, so
// the shim and the response's CSP stay in force for the dashboard.
//
// The render report (report.ts) also answers the host's `paint` with `painted` after two
// animation frames.
//
// The port lives only in closures. Dashboard code shares this window and may still reach it
// (by patching prototypes before a message arrives, say); that gives it nothing, because the
// host re-checks every request it relays.
import type { FrameConfig } from "./config";
import { containMarkup, neutralise } from "./containment";
import { takeDom, type Dom } from "./dom";
import { fetchShim, type Answer } from "./fetch-shim";
import { followHeight, followScroll, restoreScroll } from "./layout";
import { guardNavigations, type NavigationGuard } from "./navigation";
import { strSlice } from "./primordials";
import { errorReport, teller, wrapConsoles } from "./report";
import { snapshotHelper } from "./snapshot";

/** The argument of the function this file is compiled into. */
declare const frameConfig: FrameConfig;

/** What the host's init message carries (checked before start). */
interface Init {
  type: "init";
  html: string;
  apiBase: string;
  params?: unknown;
  scroll?: unknown;
}

interface Contained {
  dom: Dom;
  trustedMarkup: (html: string) => string;
  nav: NavigationGuard;
}

/** What the frame's window gets beyond the DOM's own. */
interface DashboardGlobals {
  DASHBOARD_API_BASE: string;
  DASHBOARD_DATA_MODE: "demo" | "live";
  DASHBOARD_PARAMS: Readonly<Record<string, string>>;
}

function main(config: FrameConfig) {
  if (window.parent === window) return;
  const parentWindow = window.parent;
  const dom = takeDom();
  const contained: Contained = { dom, trustedMarkup: containMarkup(), nav: guardNavigations() };

  function onMessage(event: MessageEvent) {
    if (event.source !== parentWindow) return;
    const data = event.data;
    const port = event.ports && event.ports[0];
    if (!port || !data || data.type !== "init" || typeof data.html !== "string" || typeof data.apiBase !== "string") return;
    dom.removeListener.call(window, "message", onMessage as EventListener);
    start(port, data, contained, config);
  }
  dom.addListener.call(window, "message", onMessage as EventListener);
}

/**
 * The address's parameters, checked again here against the same bounds as the host's parser:
 * own string properties only, on a frozen object with no prototype, so a name such as
 * "constructor" reads as what the address said and nothing else.
 */
function paramsOf(given: unknown, config: FrameConfig): Readonly<Record<string, string>> {
  const out = Object.create(null) as Record<string, string>;
  let count = 0;
  let name: string;
  const nameShape = new RegExp(config.params.name, config.params.nameFlags);
  if (given && typeof given === "object") {
    for (name in given) {
      if (!Object.prototype.hasOwnProperty.call(given, name) || count >= config.params.max) continue;
      const value = (given as Record<string, unknown>)[name];
      if (!nameShape.test(name) || typeof value !== "string" || value.length > config.params.valueMax) continue;
      out[name] = value;
      count++;
    }
  }
  return Object.freeze(out);
}

function start(port: MessagePort, init: Init, contained: Contained, config: FrameConfig) {
  const { dom, nav } = contained;
  const send = port.postMessage.bind(port) as (message: unknown) => void;
  const tell = teller(send, config);
  const requests = fetchShim(send, tell, dom, config);

  port.onmessage = function (event) {
    const m = event.data;
    if (m && m.type === "paint" && typeof m.id === "number") {
      paintedAfter(m.id);
      return;
    }
    if (!m || m.type !== "response" || typeof m.id !== "number") return;
    requests.answer(m as Answer);
  };

  nav.setLinkSink(function (href, via) {
    send({ type: "link", href: href.length > config.linkMax ? strSlice(href, 0, config.linkMax + 1) : href, via: via });
  });

  const report = errorReport(tell, requests.tellRefusal, dom, config);
  wrapConsoles(tell, config);
  // Two animation frames: the first runs before the next paint, the second after it.
  function paintedAfter(id: number) {
    const raf = dom.raf;
    if (!raf) return send({ type: "painted", id: id });
    raf(function () {
      raf(function () {
        send({ type: "painted", id: id });
      });
    });
  }

  const win = window as unknown as DashboardGlobals;
  Object.defineProperty(window, "fetch", { value: requests.fetch, writable: true, configurable: true });
  Object.defineProperty(window, config.snapshot.helper, { value: snapshotHelper(send, config), writable: true, configurable: true });
  win.DASHBOARD_API_BASE = init.apiBase;
  // Which data the dashboard is on, said once by the frame so no dashboard compares URLs.
  win.DASHBOARD_DATA_MODE = init.apiBase === config.demoApiBase ? "demo" : "live";
  win.DASHBOARD_PARAMS = paramsOf(init.params, config);

  const written = neutralise(init.html);
  report.wrote(written);
  nav.setAfterOpen(report.watchRender);
  document.open();
  nav.guardNavigation();
  document.write(contained.trustedMarkup(written));
  document.close();

  // document.open dropped every window listener, so these go on after it.
  const userScrolled = followScroll(send, dom, config);
  followHeight(send, dom, config);
  const target = typeof init.scroll === "number" && init.scroll > 0 ? init.scroll : 0;
  if (target > 0) restoreScroll(target, userScrolled, dom, config);
}

main(frameConfig);

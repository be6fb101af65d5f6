// The dashboard document's scroll position and height, told to the host; its scroll position
// restored. These run once the dashboard is written (document.open dropped every window
// listener before), so what they look up as they run is the dashboard's to spoil, as before.
import type { FrameConfig } from "./config";
import type { Dom } from "./dom";
import { now } from "./primordials";
import type { Send } from "./report";

/** Scroll notices at most every scrollNoticeMs; answers whether the reader has scrolled themselves. */
export function followScroll(send: Send, dom: Dom, config: FrameConfig): () => boolean {
  const { addListener, setT } = dom;
  let userScrolled = false;
  let lastSent = -1;
  let timer = 0;
  function notice() {
    timer = 0;
    const y = Math.max(0, Math.round(window.scrollY || 0));
    if (y !== lastSent) {
      lastSent = y;
      send({ type: "scroll", y: y });
    }
  }
  addListener.call(
    window,
    "scroll",
    function () {
      if (!timer) timer = setT(notice, config.scrollNoticeMs);
    },
    { passive: true },
  );
  ["wheel", "touchmove", "keydown", "pointerdown"].forEach(function (t) {
    addListener.call(
      window,
      t,
      function () {
        userScrolled = true;
      },
      { passive: true, capture: true },
    );
  });
  return () => userScrolled;
}

/**
 * The document's height, for hosts that size the frame to it: the root's box (not its
 * scrollHeight, which never falls below the frame's own height, so the frame could only grow)
 * or the body's overflow, whichever is taller. At most one notice per heightNoticeMs.
 * Content sized by the viewport (body { min-height: 100vh } plus its margin) grows by exactly
 * as much as the frame does, so following it would grow the frame without end: a change of
 * height equal to the change of the frame's own viewport since the last measure is not told.
 */
export function followHeight(send: Send, dom: Dom, config: FrameConfig): void {
  const { addListener, setT, RO, rectOf, scrollHeightOf, observe } = dom;
  let lastHeight = -1;
  let lastMeasured = -1;
  let lastViewport = -1;
  let heightTimer = 0;
  let heightAt = 0;
  function measureHeight() {
    const root = document.documentElement;
    const body = document.body;
    let h = 0;
    // Nothing laid out, nothing to tell.
    if (!root || !rectOf) return -1;
    try {
      h = rectOf(root).height;
      if (body && scrollHeightOf) {
        const b = scrollHeightOf(body);
        if (b > h) h = b;
      }
    } catch {}
    h = Math.ceil(h);
    return h > config.heightMax ? config.heightMax : h > 0 ? h : 0;
  }
  function sendHeight() {
    heightTimer = 0;
    heightAt = now();
    const h = measureHeight();
    const v = Math.round(+window.innerHeight || 0);
    // A frame not shown yet (the host's standby, just handed this document) has no viewport
    // and nothing laid out: its measure would read 0, and shrink the frame it is about to
    // replace. The resize when it is shown measures again.
    if (h < 0 || v === 0) return;
    const followsViewport = lastMeasured >= 0 && v !== lastViewport && h - lastMeasured === v - lastViewport;
    lastMeasured = h;
    lastViewport = v;
    if (!followsViewport && h !== lastHeight) {
      lastHeight = h;
      send({ type: "height", height: h });
    }
  }
  function heightChanged() {
    if (heightTimer) return;
    const wait = heightAt + config.heightNoticeMs - now();
    heightTimer = setT(sendHeight, wait > 0 ? wait : 0);
  }
  if (RO && observe) {
    try {
      const sizes = new RO(heightChanged);
      if (document.documentElement) observe(sizes, document.documentElement);
      if (document.body) observe(sizes, document.body);
    } catch {}
  }
  addListener.call(window, "load", heightChanged);
  addListener.call(window, "resize", heightChanged, { passive: true });
  heightChanged();
}

/** Scrolls back to where the reader was, while the dashboard is still laying out and until they scroll themselves. */
export function restoreScroll(target: number, userScrolled: () => boolean, dom: Dom, config: FrameConfig): void {
  const until = Date.now() + config.scrollRestoreMs;
  const restore = function () {
    // Once the reader scrolls, their position wins over the restored one.
    if (userScrolled()) return;
    window.scrollTo(0, target);
    if (Math.abs((window.scrollY || 0) - target) > 1 && Date.now() < until) dom.setT(restore, 100);
  };
  restore();
}

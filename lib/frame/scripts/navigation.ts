// Navigations the dashboard starts by markup or events (links, SVG links, window.open with
// _self, document.open with three arguments, meta refresh): refused before they start. A link
// clicked, or an address given to window.open, goes to the host as a `link` request instead;
// the host opens it in a new tab only if lib/frame/links.ts and its own user activation allow.
// location.* assignments cannot be intercepted (Location is unforgeable and the Navigation
// API's events are disabled in an opaque origin): they remain, see docs/frame.md.
import { replaceMethod, refuse } from "./containment";
import { apply, defineProp, Str, strCharAt, uncurry } from "./primordials";

export interface NavigationGuard {
  /** Puts the click guard (and what `afterOpen` names) on the window: after each document.open, which drops every listener. */
  guardNavigation(): void;
  /** Where a link the dashboard asks to open is sent (the host's port). */
  setLinkSink(sink: (href: string, via: "click" | "open") => void): void;
  /** What else must go back on the window after each document.open. */
  setAfterOpen(fn: () => void): void;
}

/**
 * A click on a link (HTML, SVG or area) that would leave the document is cancelled before its
 * default action; window.open and navigation.navigate are gone. document.open() drops every
 * listener, so the guard is put back after each.
 */
export function guardNavigations(): NavigationGuard {
  const addL = uncurry(EventTarget.prototype.addEventListener);
  const composedPath = typeof Event === "function" ? uncurry(Event.prototype.composedPath) : null;
  const preventDefault = typeof Event === "function" ? uncurry(Event.prototype.preventDefault) : null;
  const ElementProto = typeof Element === "function" ? Element.prototype : null;
  const getAttr = ElementProto ? uncurry(ElementProto.getAttribute) : null;
  const localNameOf = ElementProto ? uncurry((Object.getOwnPropertyDescriptor(ElementProto, "localName") as PropertyDescriptor).get as () => string) : null;
  const isElement = function (x: unknown) {
    try {
      (localNameOf as (x: unknown) => string)(x);
      return true;
    } catch {
      return false;
    }
  };
  let linkSink: ((href: string, via: "click" | "open") => void) | null = null;
  let afterOpen: (() => void) | null = null;

  function onClick(event: Event) {
    // Without Element nothing is an element; without Event the guard is never put on.
    if (!composedPath || !preventDefault || !getAttr || !localNameOf) return;
    const path = composedPath(event);
    for (let i = 0; i < path.length; i++) {
      const el = path[i];
      if (!isElement(el)) continue;
      const tag = localNameOf(el);
      if (tag !== "a" && tag !== "area") continue;
      let href = getAttr(el, "href");
      if (href === null) href = getAttr(el, "xlink:href");
      if (href === null) continue;
      if (strCharAt(href, 0) === "#") return;
      preventDefault(event);
      // The frame opens nothing itself: the host decides, on its own user activation.
      if (linkSink) linkSink(href, "click");
      return;
    }
  }
  function guardNavigation() {
    if (afterOpen) afterOpen();
    if (!composedPath) return;
    addL(window, "click", onClick, true);
    addL(window, "auxclick", onClick, true);
  }

  // A dispatched click that is not cancelable still follows an SVG link: such events are refused.
  if (typeof Event === "function") {
    const typeOf = uncurry((Object.getOwnPropertyDescriptor(Event.prototype, "type") as PropertyDescriptor).get as () => string);
    const cancelableOf = uncurry((Object.getOwnPropertyDescriptor(Event.prototype, "cancelable") as PropertyDescriptor).get as () => boolean);
    replaceMethod<(this: EventTarget, event: Event) => unknown>(EventTarget.prototype, "dispatchEvent", function (original) {
      return function (event) {
        const type = typeOf(event);
        if ((type === "click" || type === "auxclick" || type === "DOMActivate") && !cancelableOf(event)) refuse("dispatch a click that cannot be cancelled");
        return apply(original, this, [event]);
      };
    });
  }
  defineProp(window, "open", {
    value: function (url?: unknown) {
      try {
        if (linkSink) linkSink(url === undefined ? "" : Str(url), "open");
      } catch {}
      return null;
    },
    writable: true,
    configurable: true,
  });
  try {
    defineProp(window, "navigation", { value: undefined, writable: true, configurable: true });
  } catch {}
  if (typeof Document === "function") {
    for (const key of ["open", "write", "writeln"]) {
      replaceMethod<(this: Document, ...args: unknown[]) => unknown>(Document.prototype, key, function (original) {
        return function (...args) {
          if (key === "open" && args.length >= 3) return null;
          const result = apply(original, this, args);
          if (this === document) guardNavigation();
          return result;
        };
      });
    }
  }

  return {
    guardNavigation,
    setLinkSink: (sink) => {
      linkSink = sink;
    },
    setAfterOpen: (fn) => {
      afterOpen = fn;
    },
  };
}

"use client";

import { useEffect } from "react";
import { HIGHLIGHT_EVENT, HIGHLIGHT_NAME, takeWish } from "./search-highlight";

// Where a search result lands: the browser has scrolled to the anchor; this finds the words the
// search matched at or after it, marks them (a CSS custom highlight, so the server's markup is
// untouched) and brings them to the middle of the screen, with focus on the place so the
// keyboard continues from there.

/** The first occurrence of `term` in the text from `start` on, ignoring case. */
function findText(start: Element, term: string): Range | null {
  const needle = term.toLowerCase();
  if (!needle) return null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const inOrAfter = start.contains(node) || Boolean(start.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (!inOrAfter) continue;
    const at = (node.textContent ?? "").toLowerCase().indexOf(needle);
    if (at >= 0) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      return range;
    }
  }
  return null;
}

export function DocsHighlight() {
  useEffect(() => {
    const land = () => {
      const anchor = decodeURIComponent(window.location.hash.slice(1));
      const target = anchor ? document.getElementById(anchor) : null;
      if (!target) return;
      const wish = takeWish();
      if (!wish || wish.anchor !== anchor || wish.path !== window.location.pathname) return;
      const range = findText(target, wish.term);
      if (range && "highlights" in CSS) CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(range));
      (range?.startContainer.parentElement ?? target).scrollIntoView({ block: "center" });
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    };
    land();
    window.addEventListener("hashchange", land);
    window.addEventListener(HIGHLIGHT_EVENT, land);
    return () => {
      window.removeEventListener("hashchange", land);
      window.removeEventListener(HIGHLIGHT_EVENT, land);
    };
  }, []);
  return null;
}

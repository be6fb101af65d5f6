"use client";

import { useEffect } from "react";

/**
 * While `question` is set, leaving the page asks first: closing or reloading the tab through the
 * browser's own prompt, and following a link of this site (which the framework would otherwise
 * turn into an in-page navigation no browser prompt sees) through a confirm with the question.
 */
export function useLeaveGuard(question: string | null): void {
  useEffect(() => {
    if (!question) return;
    // Set once the person has said yes to a link, so the browser does not ask a second time.
    let confirmed = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!confirmed) event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download") || (link.target && link.target !== "_self")) return;
      const to = new URL(link.href, location.href);
      const samePage = to.origin === location.origin && to.pathname === location.pathname && to.search === location.search;
      if (samePage) return;
      if (window.confirm(question)) {
        confirmed = true;
        return;
      }
      // Before the framework's own handler, which listens further down the tree.
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [question]);
}

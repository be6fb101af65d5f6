"use client";

import { useCallback, useEffect, useRef, useState } from "react";

export interface LeaveGuard {
  /** The address a link of this site was about to open, held while the person is asked. */
  pendingHref: string | null;
  /** Answers the question: follow the link, or stay with the edits. */
  answer: (leave: boolean) => void;
}

/**
 * While `question` is set, leaving the page asks first: closing or reloading the tab through the
 * browser's own prompt (the only one a page may use there), and following a link of this site
 * (which the framework would otherwise turn into an in-page navigation no browser prompt sees)
 * through the page's own dialog, which the caller shows while `pendingHref` is set.
 */
export function useLeaveGuard(question: string | null): LeaveGuard {
  const [pendingHref, setPendingHref] = useState<string | null>(null);
  // Set once the person has said yes to a link, so the browser does not ask a second time.
  const confirmed = useRef(false);

  useEffect(() => {
    if (!question) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!confirmed.current) event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download") || (link.target && link.target !== "_self")) return;
      const to = new URL(link.href, location.href);
      const samePage = to.origin === location.origin && to.pathname === location.pathname && to.search === location.search;
      if (samePage) return;
      // Before the framework's own handler, which listens further down the tree.
      event.preventDefault();
      event.stopImmediatePropagation();
      setPendingHref(to.href);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [question]);

  const answer = useCallback(
    (leave: boolean) => {
      const href = pendingHref;
      setPendingHref(null);
      if (!leave || !href) return;
      confirmed.current = true;
      window.location.assign(href);
    },
    [pendingHref],
  );

  return { pendingHref, answer };
}

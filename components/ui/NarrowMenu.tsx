"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * The site's navigation on a phone: one "Menu" button in the header's single row, opening the
 * links below it. It closes when the page changes (the header stays across navigations), and on
 * Escape, with focus back on the button.
 */
export function NarrowMenu({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const path = usePathname();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [path]);
  return (
    <details
      ref={ref}
      className="nav-narrow"
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !ref.current?.open) return;
        ref.current.open = false;
        ref.current.querySelector("summary")?.focus();
      }}
    >
      <summary>Menu</summary>
      {children}
    </details>
  );
}

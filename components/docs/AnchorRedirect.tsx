"use client";

import { useEffect } from "react";

// The reference was one page; links to `/docs#<anchor>` are everywhere (bookmarks, issues, old
// Markdown). A fragment never reaches the server, so the index page moves them on to the section
// page that holds the anchor, from a map made from the docs model.

export function AnchorRedirect({ anchors }: { anchors: Record<string, string> }) {
  useEffect(() => {
    const follow = () => {
      const anchor = decodeURIComponent(window.location.hash.slice(1));
      const section = Object.hasOwn(anchors, anchor) ? anchors[anchor] : undefined;
      if (section) window.location.replace(`/docs/${section}#${encodeURIComponent(anchor)}`);
    };
    follow();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, [anchors]);
  return null;
}

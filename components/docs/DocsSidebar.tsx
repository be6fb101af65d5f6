"use client";

import { useId, useState } from "react";
import { DocsSearch } from "./DocsSearch";
import styles from "./docs.module.css";

// The reference's contents on every page: each section, and the operations of the one being
// read. Server-rendered whole, so it works before (and without) JavaScript; the search above it
// reaches every section.

export interface SidebarGroup {
  slug: string;
  title: string;
  items: { anchor: string; method: string; path: string; summary: string }[];
}

/** Long paths wrap between segments, never inside one. */
function breakAtSlashes(path: string) {
  return path.split("/").flatMap((seg, i) => (i <= 1 ? [i === 0 ? seg : `/${seg}`] : [<wbr key={i} />, `/${seg}`]));
}

export function DocsSidebar({ groups, current, searchVersion }: { groups: SidebarGroup[]; current: string | null; searchVersion: string }) {
  const id = useId();
  // On a phone the contents are folded away so the reference itself comes first.
  const [open, setOpen] = useState(false);
  return (
    <nav aria-label="API reference" className={styles.sidebar}>
      <DocsSearch version={searchVersion} />
      <button type="button" className={styles.tocToggle} aria-expanded={open} aria-controls={`${id}-toc`} onClick={() => setOpen((o) => !o)}>
        Contents<span aria-hidden="true">{open ? " ▲" : " ▼"}</span>
      </button>
      <ul id={`${id}-toc`} className={styles.toc} data-open={open ? "true" : "false"}>
        {groups.map((g) => (
          <li key={g.slug}>
            <a href={`/docs/${g.slug}`} className={styles.tocGroup} aria-current={g.slug === current ? "page" : undefined}>
              {g.title}
            </a>
            {g.slug === current && g.items.length ? (
              <ul>
                {g.items.map((i) => (
                  <li key={i.anchor} data-testid="docs-toc-item">
                    <a href={`#${i.anchor}`} title={i.summary}>
                      <span className={styles.tocMethod}>{i.method}</span> <span className={styles.tocPath}>{breakAtSlashes(i.path)}</span>
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}

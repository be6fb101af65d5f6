"use client";

import { useId, useState } from "react";
import styles from "./docs.module.css";

// The reference's table of contents with a filter. Server-rendered whole, so it works before
// (and without) JavaScript; typing narrows it to the sections and operations that match.

export interface SidebarGroup {
  slug: string;
  title: string;
  items: {
    anchor: string;
    method: string;
    path: string;
    summary: string;
    /** Names a search finds the operation by, whole: its fields, parameters and error codes. */
    keywords?: readonly string[];
  }[];
}

/** Long paths wrap between segments, never inside one. */
function breakAtSlashes(path: string) {
  return path.split("/").flatMap((seg, i) => (i <= 1 ? [i === 0 ? seg : `/${seg}`] : [<wbr key={i} />, `/${seg}`]));
}

function matches(text: string, words: string[]): boolean {
  const hay = text.toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** Each word is in the operation's line, or is one of its field, parameter or error names. */
function itemMatches(item: SidebarGroup["items"][number], words: string[]): boolean {
  const hay = `${item.method} ${item.path} ${item.summary}`.toLowerCase();
  const names = new Set((item.keywords ?? []).map((k) => k.toLowerCase()));
  return words.every((w) => hay.includes(w) || names.has(w));
}

export function DocsSidebar({ groups }: { groups: SidebarGroup[] }) {
  const id = useId();
  const [query, setQuery] = useState("");
  // On a phone the contents are folded away so the reference itself comes first; a search
  // shows its matches whether or not they are unfolded.
  const [open, setOpen] = useState(false);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = groups
    .map((g) => {
      const groupHit = matches(g.title, words);
      return { ...g, items: g.items.filter((i) => groupHit || itemMatches(i, words)), groupHit };
    })
    .filter((g) => g.groupHit || g.items.length > 0);
  const count = shown.reduce((n, g) => n + g.items.length, 0);

  return (
    <nav aria-label="API reference" className={styles.sidebar}>
      <label htmlFor={`${id}-search`} className={styles.searchLabel}>
        Search the reference
      </label>
      <input
        id={`${id}-search`}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder="e.g. companies, waitingOn, POST"
        autoComplete="off"
        data-testid="docs-search"
        aria-describedby={`${id}-count`}
      />
      <p id={`${id}-count`} role="status" className={styles.searchCount}>
        {words.length ? `${count} ${count === 1 ? "operation" : "operations"} match` : ""}
      </p>
      <button
        type="button"
        className={styles.tocToggle}
        aria-expanded={open}
        aria-controls={`${id}-toc`}
        onClick={() => setOpen((o) => !o)}
      >
        Contents<span aria-hidden="true">{open ? " ▲" : " ▼"}</span>
      </button>
      <ul id={`${id}-toc`} className={styles.toc} data-open={open || words.length > 0 ? "true" : "false"}>
        {shown.map((g) => (
          <li key={g.slug}>
            <a href={`#${g.slug}`} className={styles.tocGroup}>
              {g.title}
            </a>
            {g.items.length ? (
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
      {words.length && shown.length === 0 ? <p className="muted">Nothing matches “{query}”.</p> : null}
    </nav>
  );
}

"use client";

import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { SearchEntry, SearchIndex } from "@/lib/reference/search";
import { highlightTerm, searchEntries } from "@/lib/reference/search-rank";
import { HIGHLIGHT_EVENT, saveWish } from "./search-highlight";
import styles from "./docs.module.css";

// Full-text search over every section: endpoints, parameters, fields, error codes and prose.
// The index is fetched on first use (it is larger than any one page) and searched here. A
// combobox with a listbox of results: arrows move, Enter opens, Escape closes then clears.

const KIND_LABEL: Record<SearchEntry["k"], string> = {
  endpoint: "endpoint",
  param: "parameter",
  field: "field",
  error: "error code",
  heading: "heading",
  prose: "text",
};

/** The search index, fetched on first use; `load` again after a failure tries again. */
function useSearchIndex(version: string) {
  const [entries, setEntries] = useState<readonly SearchEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  const requested = useRef(false);
  function load() {
    if (requested.current) return;
    requested.current = true;
    fetch(`/docs/search.json?v=${encodeURIComponent(version)}`)
      .then((r) => (r.ok ? (r.json() as Promise<SearchIndex>) : Promise.reject(new Error(String(r.status)))))
      .then((index) => setEntries(index.entries))
      .catch(() => {
        requested.current = false;
        setFailed(true);
      });
  }
  return { entries, failed, load };
}

/** Opens a result's place, highlighting what was searched for there. */
function goTo(entry: SearchEntry, query: string) {
  const [section = "", anchor = ""] = entry.h.split("#");
  const path = `/docs/${section}`;
  saveWish({ path, anchor, term: highlightTerm(entry, query) });
  // A document load, not the router's: only a load makes the place the :target the page's
  // styles mark, and the reference's pages share nothing worth keeping.
  if (window.location.pathname !== path) window.location.href = new URL(`${path}#${encodeURIComponent(anchor)}`, window.location.origin).href;
  else if (decodeURIComponent(window.location.hash.slice(1)) !== anchor) window.location.hash = anchor;
  else window.dispatchEvent(new Event(HIGHLIGHT_EVENT));
}

/** What the status line says for this query. */
function statusOf(query: string, failed: boolean, entries: readonly SearchEntry[] | null, results: readonly SearchEntry[]): string {
  if (!query.trim()) return "";
  if (failed) return "The search could not load; the contents below still work.";
  if (!entries) return "Loading the index…";
  return results.length ? `${results.length}${results.length === 12 ? "+" : ""} results; arrows to choose, Enter to open` : `Nothing matches “${query.trim()}”.`;
}

function SearchResults({ listId, optionId, results, active, expanded, onChoose }: { listId: string; optionId: (i: number) => string; results: readonly SearchEntry[]; active: number; expanded: boolean; onChoose: (entry: SearchEntry) => void }) {
  return (
    <ul id={listId} role="listbox" aria-label="Search results" className={styles.results} hidden={!expanded}>
      {results.map((r, i) => (
        <li
          key={`${r.k} ${r.h} ${r.n}`}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          className={styles.result}
          data-kind={r.k}
          // Keep focus in the box, so a click is not lost to the blur that closes the list.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onChoose(r)}
        >
          <span className={styles.resultName}>{r.k === "prose" ? r.n : <code>{r.n}</code>}</span>
          <span className={styles.resultWhere}>
            {KIND_LABEL[r.k]} · {r.c}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function DocsSearch({ version }: { version: string }) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-results`;
  const optionId = (i: number) => `${id}-result-${i}`;
  const [query, setQuery] = useState("");
  const { entries, failed, load } = useSearchIndex(version);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);

  // What was typed before the script ran is the query, not lost.
  useEffect(() => {
    const typed = input.current?.value ?? "";
    if (typed) {
      load();
      setQuery(typed);
      setOpen(document.activeElement === input.current);
    }
    // Once, at hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const results = useMemo(() => (entries && query.trim() ? searchEntries(entries, query) : []), [entries, query]);
  const expanded = open && results.length > 0;

  function go(entry: SearchEntry) {
    setOpen(false);
    goTo(entry, query);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (results.length ? Math.min(a + 1, results.length - 1) : -1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter") {
      const chosen = results[active >= 0 ? active : 0];
      if (expanded && chosen) {
        e.preventDefault();
        go(chosen);
      }
    } else if (e.key === "Escape") {
      if (expanded) setOpen(false);
      else setQuery("");
      setActive(-1);
    }
  }

  const status = statusOf(query, failed, entries, results);

  return (
    <div className={styles.search}>
      <label htmlFor={inputId} className={styles.searchLabel}>
        Search the reference
      </label>
      <input
        id={inputId}
        ref={input}
        type="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={`${id}-status`}
        value={query}
        placeholder="Endpoint, field, error…"
        autoComplete="off"
        spellCheck={false}
        data-testid="docs-search"
        onFocus={load}
        onChange={(e) => {
          load();
          setQuery(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <p id={`${id}-status`} role="status" className={styles.searchCount}>
        {status}
      </p>
      <SearchResults listId={listId} optionId={optionId} results={results} active={active} expanded={expanded} onChoose={go} />
    </div>
  );
}
